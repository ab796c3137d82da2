import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AuthOptions } from './auth.ts';
import { authorize } from './auth.ts';
import type { NtfyError } from './errors.ts';
import { ERRORS, errorForStatus } from './errors.ts';
import type { NtfyMessage } from './messages.ts';
import { TOPIC, newMessage, parseSince, selectSince } from './messages.ts';
import type { ParamReader, Published, StoredFile } from './publish.ts';
import { publishJson, publishToTopic } from './publish.ts';

export type { NtfyMessage } from './messages.ts';
export type { NtfyError } from './errors.ts';

export interface NtfyEmulatorOptions {
  port?: number;
  host?: string;
  /** Protects every topic: only these users / tokens may subscribe and publish. */
  auth?: AuthOptions;
  /** How often a stream gets a `keepalive` message (ntfy's default `keepalive-interval`: 45 s). */
  keepaliveMs?: number;
  /** One line per request on stdout. */
  logToStdout?: boolean;
}

/** A request as the emulator saw it. */
export interface SeenRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** One open JSON stream. */
export interface OpenStream {
  topics: string[];
  /** The query string it was opened with (`since=...`). */
  query: string;
  user: string | null;
}

/** Hooks for tests (`POST /_control/fail {"status":429}` and `/_control/drop` over HTTP). */
export interface NtfyControl {
  /** Every cached message, oldest first (kept across restarts). */
  cache: NtfyMessage[];
  /** Every request, in order. */
  requests: SeenRequest[];
  /** The JSON streams open now. */
  readonly streams: OpenStream[];
  /** How many keepalive messages were sent, over all streams. */
  keepalives: number;
  /** Publishes as another client would, without HTTP. */
  publish(topic: string, fields?: Partial<NtfyMessage>): NtfyMessage;
  /** The next `count` requests (of `scope`) answer `status` with ntfy's error JSON. */
  failNext(status: number, count?: number, scope?: 'publish' | 'subscribe' | 'any'): void;
  /** Ends every open JSON stream at once (a proxy or network cut). */
  dropStreams(): void;
  /** While on, requests get no answer at all (a hung server); turning it off drops them. */
  stall(on: boolean): void;
  /** Changes who may use the server (undefined: open to all). */
  auth: AuthOptions | undefined;
}

export interface NtfyEmulator {
  /** `http://127.0.0.1:PORT`, what ntfy's `server_url` takes. */
  url: string;
  port: number;
  control: NtfyControl;
  /** Stops listening (connections dropped); the cache is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** stop() then start(). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

interface Stream extends OpenStream {
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body)}\n`);
}

/**
 * Starts an emulated ntfy server (publish, JSON stream subscribe, poll) on a free loopback port.
 *
 * @example
 * const emu = await startNtfyEmulator({ auth: { tokens: { tk_abc: 'phil' } } });
 * await fetch(emu.url, { method: 'POST', headers: { authorization: 'Bearer tk_abc' },
 *   body: JSON.stringify({ topic: 'alerts', message: 'hi' }) });
 * await emu.close();
 */
export async function startNtfyEmulator(options: NtfyEmulatorOptions = {}): Promise<NtfyEmulator> {
  const host = options.host ?? '127.0.0.1';
  const keepaliveMs = options.keepaliveMs ?? 45_000;
  const streams = new Set<Stream>();
  const sockets = new Set<Socket>();
  const files = new Map<string, StoredFile>();
  const failures: Array<{ status: number; scope: 'publish' | 'subscribe' | 'any' }> = [];
  let stalled: IncomingMessage[] = [];
  let stalling = false;
  let port = options.port ?? 0;
  let server: Server | undefined;
  let baseUrl = '';

  const deliver = (m: NtfyMessage) => {
    for (const s of streams) if (s.topics.includes(m.topic)) s.res.write(`${JSON.stringify(m)}\n`);
  };
  const store = (published: Extract<Published, { message: NtfyMessage }>) => {
    control.cache.push(published.message);
    if (published.file)
      files.set(published.message.attachment!.url.split('/').pop()!, published.file);
    deliver(published.message);
    return published.message;
  };

  const control: NtfyControl = {
    cache: [],
    requests: [],
    keepalives: 0,
    get streams() {
      return [...streams].map(({ topics, query, user }) => ({ topics, query, user }));
    },
    auth: options.auth,
    publish(topic, fields = {}) {
      const m = { ...newMessage('message', topic), message: 'triggered', ...fields };
      return store({ message: m });
    },
    failNext(status, count = 1, scope = 'any') {
      for (let i = 0; i < count; i++) failures.push({ status, scope });
    },
    dropStreams() {
      for (const s of streams) s.res.socket?.destroy();
    },
    stall(on) {
      stalling = on;
      if (!on) {
        for (const req of stalled) req.socket.destroy();
        stalled = [];
      }
    },
  };

  const takeFailure = (scope: 'publish' | 'subscribe'): NtfyError | undefined => {
    const at = failures.findIndex((f) => f.scope === 'any' || f.scope === scope);
    if (at < 0) return undefined;
    const [failure] = failures.splice(at, 1);
    return errorForStatus(failure!.status);
  };

  const subscribe = (req: IncomingMessage, res: ServerResponse, url: URL, user: string | null) => {
    const topics = url.pathname.slice(1, -'/json'.length).split(',');
    if (!topics.every((t) => TOPIC.test(t))) return send(res, 400, ERRORS.topicInvalid);
    const param: ParamReader = (...names) => readParam(req, url, names);
    const poll = ['1', 'yes', 'true'].includes(param('x-poll', 'poll', 'po') ?? '');
    const since = parseSince(param('x-since', 'since', 'si') ?? '', poll);
    if (!since) return send(res, 400, ERRORS.sinceInvalid);
    res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
    const old = selectSince(control.cache, topics, since);
    if (poll) {
      res.end(old.map((m) => `${JSON.stringify(m)}\n`).join(''));
      return;
    }
    // As the server: subscribed first, then the open event, then the cached messages.
    const joined = topics.join(',');
    const timer = setInterval(() => {
      control.keepalives++;
      res.write(`${JSON.stringify(newMessage('keepalive', joined))}\n`);
    }, keepaliveMs);
    const stream: Stream = { topics, query: url.search, user, res, timer };
    streams.add(stream);
    res.on('close', () => {
      clearInterval(timer);
      streams.delete(stream);
    });
    res.write(`${JSON.stringify(newMessage('open', joined))}\n`);
    for (const m of old) res.write(`${JSON.stringify(m)}\n`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', baseUrl);
    const body = await readBody(req);
    control.requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body,
    });
    if (options.logToStdout) process.stdout.write(`${req.method} ${req.url}\n`);
    if (url.pathname.startsWith('/_control/')) return controlRoute(url.pathname, body, res);
    if (stalling) return void stalled.push(req);
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/v1/health') return send(res, 200, { healthy: true });
    if (method === 'GET' && url.pathname.startsWith('/file/')) {
      const file = files.get(url.pathname.slice('/file/'.length));
      if (!file) return send(res, 404, ERRORS.notFound);
      res.writeHead(200, { 'content-type': file.type });
      return void res.end(file.data);
    }
    const isStream = method === 'GET' && /^\/[^/]+\/json$/.test(url.pathname);
    const isPublish = (method === 'POST' || method === 'PUT') && /^\/[^/]*$/.test(url.pathname);
    if (!isStream && !isPublish) return send(res, 404, ERRORS.notFound);
    const failure = takeFailure(isStream ? 'subscribe' : 'publish');
    if (failure) return send(res, failure.http, failure);
    const who = authorize(req, url, control.auth, isPublish);
    if ('error' in who) return send(res, who.error.http, who.error);
    if (isStream) return subscribe(req, res, url, who.user);
    const param: ParamReader = (...names) => readParam(req, url, names);
    const published =
      url.pathname === '/'
        ? publishJson(body, baseUrl)
        : publishToTopic(url.pathname.slice(1), body, param, baseUrl);
    if ('error' in published) return send(res, published.error.http, published.error);
    send(res, 200, store(published));
  };

  const controlRoute = (path: string, body: Buffer, res: ServerResponse) => {
    const args = (body.length ? JSON.parse(body.toString('utf8')) : {}) as Record<string, unknown>;
    if (path === '/_control/fail') control.failNext(Number(args.status), Number(args.count ?? 1));
    else if (path === '/_control/drop') control.dropStreams();
    else return send(res, 404, ERRORS.notFound);
    send(res, 200, { ok: true });
  };

  const start = async () => {
    const s = createServer((req, res) => {
      handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, { ...ERRORS.internal, detail: String(err) });
      });
    });
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => s.listen(port, host, resolve));
    port = (s.address() as AddressInfo).port;
    baseUrl = `http://${host}:${port}`;
    server = s;
  };
  const stop = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    for (const st of streams) clearInterval(st.timer);
    streams.clear();
    stalled = [];
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await start();
  return {
    get url() {
      return baseUrl;
    },
    get port() {
      return port;
    },
    control,
    stop,
    start,
    restart: async () => {
      await stop();
      await start();
    },
    close: stop,
  };
}

/** A parameter by its aliases: a header (Node lowercases them), else a lowercase query param. */
function readParam(req: IncomingMessage, url: URL, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = req.headers[name];
    if (typeof value === 'string') return value;
  }
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (value !== null) return value;
  }
  return undefined;
}
