import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BAD_JSON, handle } from './api.ts';
import type { BridgeState, LightState } from './state.ts';
import { seedState } from './state.ts';

/** How long the link button counts as pressed, as on the real bridge. */
export const LINK_BUTTON_SECONDS = 30;

export interface HueEmulatorOptions {
  port?: number;
  host?: string;
  /** One line per request on stdout. */
  logToStdout?: boolean;
}

/** Hooks for tests (also served as `POST /_control/...`, see README). */
export interface HueControl {
  state: BridgeState;
  /** `METHOD /path` of every request, usernames included, in order. */
  requests: string[];
  /** The parsed body of every PUT, in order. */
  bodies: unknown[];
  /** Called before each API request is answered: a test's way to change things mid-call. */
  beforeAnswer?: (method: string, path: string) => void;
  /** Presses the link button: POST /api creates users for the next 30 s. */
  pressButton(): void;
  /** Deletes a light, as when it is removed in the Hue app: it leaves lights, groups and scenes. */
  removeLight(id: string): void;
  /** Changes a light behind the client's back (a wall switch, the Hue app). */
  setLight(id: string, state: Partial<LightState>): void;
  /** While on, requests get no answer (a hung bridge); turning it off drops them. */
  stall(on: boolean): void;
}

export interface HueEmulator {
  /** `http://127.0.0.1:PORT`; the API is under `/api`. */
  url: string;
  /** `127.0.0.1:PORT`, as Pipit's `bridge:` setting takes it. */
  host: string;
  port: number;
  control: HueControl;
  /** Stops listening (connections dropped); the state is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** stop() then start(): a power cycle, the whitelist and lights kept. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return BAD_JSON;
  }
}

/**
 * Starts an emulated Hue bridge (v1 REST API) on a free loopback port.
 *
 * @example
 * const emu = await startHueEmulator();
 * emu.control.pressButton();
 * await fetch(`${emu.url}/api`, { method: 'POST', body: '{"devicetype":"app#host"}' });
 * await emu.close();
 */
export async function startHueEmulator(options: HueEmulatorOptions = {}): Promise<HueEmulator> {
  const state = seedState();
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 0;
  let stalled = false;
  const sockets = new Set<Socket>();
  const hung = new Set<ServerResponse>();
  let server: Server | undefined;

  const control: HueControl = {
    state,
    requests: [],
    bodies: [],
    pressButton: () => void (state.linkButtonUntil = Date.now() + LINK_BUTTON_SECONDS * 1000),
    removeLight(id) {
      state.lights.delete(id);
      for (const g of state.groups.values()) g.lights = g.lights.filter((l) => l !== id);
      for (const s of state.scenes.values()) {
        s.lights = s.lights.filter((l) => l !== id);
        delete s.lightstates[id];
      }
    },
    setLight(id, patch) {
      const light = state.lights.get(id);
      if (!light) throw new Error(`no light ${id}`);
      Object.assign(light.state, patch);
    },
    stall(on) {
      stalled = on;
      if (!on) for (const res of hung) res.destroy();
      if (!on) hung.clear();
    },
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://bridge');
    const body = parse(await readBody(req));
    control.requests.push(`${req.method} ${url.pathname}`);
    if (req.method === 'PUT') control.bodies.push(body);
    if (options.logToStdout) process.stdout.write(`${req.method} ${url.pathname}\n`);
    if (url.pathname.startsWith('/_control/') && req.method === 'POST') {
      const args = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      const what = url.pathname.slice('/_control/'.length);
      try {
        if (what === 'press-button') control.pressButton();
        else if (what === 'remove-light') control.removeLight(String(args.id));
        else if (what === 'set-light')
          control.setLight(String(args.id), args.state as Partial<LightState>);
        else if (what === 'stall') control.stall(args.on !== false);
        else if (what === 'restart') {
          send(res, 200, { ok: true });
          setImmediate(() => void emulator.restart());
          return;
        } else return send(res, 404, { error: `no control "${what}"` });
      } catch (err) {
        return send(res, 400, { error: (err as Error).message });
      }
      return send(res, 200, { ok: true });
    }
    if (stalled) {
      hung.add(res);
      return;
    }
    if (url.pathname !== '/api' && !url.pathname.startsWith('/api/'))
      return send(res, 404, { error: 'not found' });
    control.beforeAnswer?.(req.method ?? 'GET', url.pathname);
    send(res, 200, handle(state, req.method ?? 'GET', url.pathname.slice(4), body, Date.now()));
  }

  async function start(): Promise<void> {
    const s = createServer((req, res) => void onRequest(req, res));
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  }

  async function stop(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const res of hung) res.destroy();
    hung.clear();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await start();
  const emulator: HueEmulator = {
    url: `http://${host}:${port}`,
    host: `${host}:${port}`,
    port,
    control,
    start,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    close: async () => {
      stalled = false;
      await stop();
    },
  };
  return emulator;
}
