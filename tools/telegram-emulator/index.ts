import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Answer } from './api.ts';
import { fail, handle } from './api.ts';
import type { Call } from './control.ts';
import { TelegramControl } from './control.ts';
import { BadParams, readParams } from './params.ts';
import { controlRoute } from './routes.ts';
import type { EmulatorState } from './state.ts';
import { DOCS_TOKEN, seedState } from './state.ts';
import { UpdateQueue } from './updates.ts';

export { DOCS_TOKEN, TEST_CHAT, TEST_USER } from './state.ts';
export type { TgMessage, TgUpdate } from './state.ts';
export type { Call, Fault } from './control.ts';
export { TelegramControl };
export { greyPng } from './png.ts';

export interface TelegramEmulatorOptions {
  port?: number;
  host?: string;
  /** The bot's token (default: the Bot API page's example token). */
  token?: string;
  /** One line per request on stdout (the token left out). */
  logToStdout?: boolean;
}

export interface TelegramEmulator {
  /** `http://127.0.0.1:PORT`: what chat.telegram's `api_url` takes. */
  url: string;
  port: number;
  /** The bot's token. */
  token: string;
  control: TelegramControl;
  /** Stops listening and drops every connection (held long polls too); the state is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** stop() then start(): a restart of the server, its updates and messages kept. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function write(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(answer.body));
}

/**
 * Starts an emulated Telegram Bot API server on a free loopback port: `/bot<token>/<method>` for
 * getMe, getUpdates (long polling), sendMessage, sendPhoto and sendDocument, and `/_control/...`
 * for tests (see README.md).
 *
 * @example
 * const emu = await startTelegramEmulator();
 * emu.control.userMessage({ text: 'hello' });
 * await fetch(`${emu.url}/bot${emu.token}/getUpdates?timeout=1`);
 * await emu.close();
 */
export async function startTelegramEmulator(
  opts: TelegramEmulatorOptions = {},
): Promise<TelegramEmulator> {
  const state: EmulatorState = seedState(opts.token ?? DOCS_TOKEN);
  const queue = new UpdateQueue();
  const control = new TelegramControl(state, queue);
  const host = opts.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  const hung = new Set<ServerResponse>();
  control.onUnstall = () => {
    for (const res of hung) res.destroy();
    hung.clear();
  };
  let server: Server | undefined;
  let port = opts.port ?? 0;

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const match = /^\/bot([^/]*)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return write(res, fail(404, 'Not Found'));
    const [, token, method] = match as unknown as [string, string, string];
    const call: Call = { method, at: Date.now(), params: {}, files: {}, status: 0 };
    control.calls.push(call);
    const closed = new AbortController();
    res.on('close', () => closed.abort());
    let answer: Answer;
    try {
      const params = await readParams(req, url);
      call.params = params.values;
      call.files = params.files;
      if (control.isStalled(method)) {
        hung.add(res);
        return;
      }
      answer =
        token !== state.token
          ? fail(401, 'Unauthorized')
          : (control.takeFault(method) ??
            (await handle(method, state, queue, params, closed.signal)));
    } catch (err) {
      if (!(err instanceof BadParams)) throw err;
      answer = fail(err.message === 'Request Entity Too Large' ? 413 : 400, err.message);
    }
    if (closed.signal.aborted) return;
    call.status = answer.status;
    call.answeredAt = Date.now();
    if (opts.logToStdout)
      process.stdout.write(`${new Date().toISOString()} ${method} -> ${answer.status}\n`);
    const delivered =
      method.toLowerCase() === 'getupdates' &&
      answer.body.ok &&
      (answer.body.result as unknown[]).length > 0;
    if (delivered && control.dieAfterDelivery) {
      control.dieAfterDelivery = false;
      res.on('finish', () => void emulator.stop());
    }
    write(res, answer);
  }

  function listener(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const route = url.pathname.startsWith('/_control/')
      ? controlRoute(emulator, req, res, url)
      : api(req, res, url);
    route.catch((err: unknown) => {
      if (!res.headersSent) write(res, fail(500, `Internal Server Error: ${String(err)}`));
    });
  }

  const emulator: TelegramEmulator = {
    get url() {
      return `http://${host}:${port}`;
    },
    get port() {
      return port;
    },
    get token() {
      return state.token;
    },
    control,
    async start() {
      if (server) return;
      const next = createServer(listener);
      next.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve, reject) => {
        next.once('error', reject);
        next.listen(port, host, () => resolve());
      });
      port = (next.address() as AddressInfo).port;
      server = next;
    },
    async stop() {
      const current = server;
      if (!current) return;
      server = undefined;
      queue.release();
      hung.clear();
      const closed = new Promise<void>((resolve) => current.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async restart() {
      await emulator.stop();
      await emulator.start();
    },
    close: () => emulator.stop(),
  };
  await emulator.start();
  return emulator;
}
