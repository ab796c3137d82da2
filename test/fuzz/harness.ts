// The fuzz harness: a Pipit child under test (restarted after a crash), drivers that send one input
// and judge its answer, and the campaign that runs a generator through a driver in concurrent
// streams, counts answers by status and replays each kind of failure alone to shrink it.
import { Agent, request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import {
  checkErrors,
  checkExecuted,
  checkResponseMessage,
  clip,
  DOCUMENTED_STATUSES,
  errorsOf,
  expectedId,
  isObject,
  parseJson,
  sentMessage,
  textDepth,
} from './checks.ts';
import {
  BODY_LIMIT,
  DEVICE_ID,
  executeInput,
  hookInput,
  INVALID_AUTH,
  isUtf8,
  LISTENED_HOOKS,
  VALID_AUTH,
  wsEventsInput,
  wsRequestsInput,
} from './generators.ts';
import type { AuthKind, HttpInput, WsInput } from './generators.ts';
import { PASSWORD, PipitChild, USERNAME } from './pipit-child.ts';
import type { ChildMemory } from './pipit-child.ts';

/** The hooks and the procedure the generators aim at. */
export const FUZZ_YAML = `event.hook.Fuzz:
  if: {type: WebhookEvent, hook: fuzz}
  then:
    - action: utils.echo
      args: {x: 1}
event.hook.FuzzData:
  if: {type: WebhookEvent, hook: fuzzdata}
  then:
    - return: \${data}
event.hook.FuzzAnswer:
  if: {type: WebhookEvent, hook: fuzzanswer}
  then:
    - action: hook.send_response
      args: {body: accepted, status: 202, headers: {x-fuzz: 'yes'}}
procedure.fuzzproc(v):
  - return: \${v}
`;

/** How long an HTTP request may take to be answered (hook listeners time out after 5 s). */
const ANSWER_TIMEOUT_MS = 15_000;
/** How long a WebSocket frame may take to be answered (the server answers at once). */
const FRAME_TIMEOUT_MS = 10_000;

const delay = (ms: number) =>
  new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/** Violation kinds that are about the whole server, not one input. */
export const SERVER_WIDE: ReadonlySet<string> = new Set(['crash', 'hang', 'down']);

/** The kind of a violation ("crash: ..." → "crash"). */
export function kindOf(violation: string): string {
  return violation.slice(0, violation.indexOf(':'));
}

// ---------------------------------------------------------------------------------------------
// The server under test

/**
 * The Pipit child under test with its tokens, a passive `/ws/events` subscriber (so that events
 * fan out to a real socket), and crash recovery: a driver whose request failed asks
 * {@link FuzzServer.diagnose}, which tells a crash or a hang from a live server and restarts it.
 */
export class FuzzServer {
  readonly pipit = new PipitChild({ gc: true, extraYaml: FUZZ_YAML });
  token = '';
  revoked = '';
  restarts = 0;
  /** One line per crash or hang: what was seen. */
  readonly failures: string[] = [];
  watcherFrames = 0;
  private watcher: WebSocket | undefined;
  private restarting: Promise<void> | undefined;
  /** The last crash or hang seen. */
  lastFailure = '';

  /** Starts the child, registers the user, issues a token and a revoked one. */
  static async start(): Promise<FuzzServer> {
    const server = new FuzzServer();
    try {
      await server.pipit.start();
      server.token = (await server.pipit.registerUser()).token;
      const revoked = await server.pipit.issueToken('revoked');
      await server.pipit.revokeToken(server.token, revoked.id);
      server.revoked = revoked.token;
      await server.openWatcher();
      return server;
    } catch (err) {
      await server.close();
      throw err;
    }
  }

  get port(): number {
    return this.pipit.port;
  }

  /** A token with its signature changed. */
  get tampered(): string {
    const last = this.token.at(-2) === 'A' ? 'B' : 'A';
    return `${this.token.slice(0, -2)}${last}${this.token.at(-1)}`;
  }

  /** Resolves once no restart is under way. */
  async ready(): Promise<void> {
    while (this.restarting) await this.restarting;
  }

  /**
   * After an input got no answer: undefined when the server is up and answering, else a
   * "crash: ..." or "hang: ..." violation (the server has been restarted by then).
   */
  async diagnose(since = this.restarts): Promise<string | undefined> {
    if (this.restarting) {
      await this.restarting;
      return this.lastFailure;
    }
    // Sent before a restart that is over by now: it failed with the server that crashed.
    if (this.restarts !== since) return this.lastFailure;
    const exited = this.pipit.waitExit().then(() => 'exit' as const);
    const probe = this.knownGood().then((v) => (v === undefined ? ('ok' as const) : v));
    const first = await Promise.race([exited, probe, delay(10_000)]);
    if (first === 'ok') return undefined;
    await Promise.race([exited, delay(2_000)]);
    return this.recover(this.pipit.alive() ? 'hang' : 'crash');
  }

  private async recover(kind: 'crash' | 'hang'): Promise<string> {
    if (!this.restarting) {
      this.lastFailure =
        kind === 'crash'
          ? `crash: the server exited (${this.pipit.crashes.at(-1) ?? '?'}): ${crashReason(this.pipit.logs())}`
          : 'hang: the server stopped answering a known-good request for 10 s';
      this.failures.push(this.lastFailure);
      this.restarting = (async () => {
        if (this.pipit.alive()) {
          this.pipit.child!.kill('SIGKILL');
          await this.pipit.waitExit();
        }
        this.watcher?.terminate();
        await this.pipit.start();
        this.restarts++;
        await this.openWatcher();
      })().finally(() => (this.restarting = undefined));
    }
    await this.restarting;
    return this.lastFailure;
  }

  /** `POST /execute` utils.echo on a fresh connection: undefined when answered right. */
  async knownGood(): Promise<string | undefined> {
    const n = Math.floor(Math.random() * 1e9);
    const res = await httpRequest(
      false,
      this.port,
      'POST',
      '/execute',
      { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      JSON.stringify({ type: 'request', action: 'utils.echo', args: { n } }),
      10_000,
    );
    if ('error' in res) return `down: a known-good request failed: ${res.error.message}`;
    const body = parseJson(res.body.toString());
    const ok =
      res.status === 200 &&
      body.ok &&
      (body.value as { response?: { output?: { n?: number } } }).response?.output?.n === n;
    return ok
      ? undefined
      : `down: a known-good request answered ${res.status} ${clip(res.body.toString())}`;
  }

  /** Forces a GC in the child and returns its memory. */
  memory(): Promise<ChildMemory> {
    return this.pipit.memory();
  }

  private async openWatcher(): Promise<void> {
    const ws = new WebSocket(`${this.pipit.wsUrl}/ws/events`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    ws.on('message', () => this.watcherFrames++);
    ws.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    this.watcher = ws;
  }

  async close(): Promise<void> {
    await this.ready();
    this.watcher?.terminate();
    await this.pipit.close();
  }
}

/** The most telling error line in a crashed child's logs. */
export function crashReason(logs: string): string {
  const lines = logs.split('\n');
  const hit =
    lines.findLast((l) => /\b(\w*Error|FATAL|Abort)\b/.test(l) && !/^\s+at /.test(l)) ??
    lines.findLast((l) => l.trim() !== '' && !l.startsWith('---'));
  return clip(hit?.trim() ?? 'no log line', 400);
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function byteLength(data: string | Uint8Array | undefined): number {
  if (data === undefined) return 0;
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}

/** One HTTP request on `agent` (false: a fresh connection); never rejects. */
export function httpRequest(
  agent: Agent | false,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  timeoutMs = ANSWER_TIMEOUT_MS,
  retried = false,
): Promise<HttpAnswer | { error: Error & { code?: string }; harness?: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    let req: ReturnType<typeof request>;
    const payload =
      body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : body;
    const finish = (v: HttpAnswer | { error: Error & { code?: string }; harness?: boolean }) => {
      if (settled) return;
      settled = true;
      // A kept-alive socket the server had just closed: not the input's fault, send it again.
      if (
        'error' in v &&
        !retried &&
        req?.reusedSocket &&
        /ECONNRESET|EPIPE/.test(v.error.code ?? '')
      ) {
        resolve(httpRequest(agent, port, method, path, headers, body, timeoutMs, true));
        return;
      }
      resolve(v);
    };
    try {
      req = request({
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: payload ? { ...headers, 'content-length': String(payload.byteLength) } : headers,
      });
    } catch (err) {
      finish({ error: err as Error, harness: true });
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => finish({ error }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 16 * 1024 * 1024) chunks.push(c);
      });
      res.on('end', () =>
        finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', (error) => finish({ error }));
      res.on('aborted', () => finish({ error: new Error('the answer was cut off') }));
    });
    req.end(payload);
  });
}

/** Headers and path with the credentials an input asks for. */
function withAuth(
  server: FuzzServer,
  input: { auth: AuthKind; path: string; headers: Record<string, string> },
): { path: string; headers: Record<string, string> } {
  const h = { ...input.headers };
  let path = input.path;
  const t = server.token;
  switch (input.auth) {
    case 'valid':
      h.authorization = `Bearer ${t}`;
      break;
    case 'x-token':
      delete h.authorization;
      h['x-token'] = t;
      break;
    case 'valid-then-garbage':
      h.authorization = `Bearer ${t}`;
      h['x-token'] = 'garbage';
      break;
    case 'garbage':
      h.authorization = 'Bearer garbage.garbage.garbage';
      break;
    case 'basic':
      h.authorization = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
      break;
    case 'basic-wrong':
      // Another user name: failed Basic logins are throttled per user, the fuzz user stays usable.
      h.authorization = `Basic ${Buffer.from('nobody:wrong password').toString('base64')}`;
      break;
    case 'tampered':
      h.authorization = `Bearer ${server.tampered}`;
      break;
    case 'revoked':
      h.authorization = `Bearer ${server.revoked}`;
      break;
    case 'empty-bearer':
      h.authorization = 'Bearer ';
      break;
    case 'cookie':
      h.cookie = 'session_token=garbage; pipit_session=garbage';
      break;
    case 'query':
      path += `${path.includes('?') ? '&' : '?'}token=${t}`;
      break;
    case 'none':
      break;
  }
  // An odd header of the input must not smuggle valid credentials past an invalid kind.
  if (INVALID_AUTH.has(input.auth) && input.auth !== 'cookie' && h['x-token'] === t)
    delete h['x-token'];
  return { path, headers: h };
}

/** The outcome of one input: a status for the counts, and what was wrong. */
export interface Outcome {
  status: string;
  violations: string[];
}

/** Sends inputs of one endpoint and judges their answers. */
export interface Driver<I> {
  run(input: I): Promise<Outcome>;
  close(): Promise<void>;
}

class HttpDriver implements Driver<HttpInput> {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly server: FuzzServer;
  private readonly judge: (input: HttpInput, answer: HttpAnswer) => Outcome;

  constructor(server: FuzzServer, judge: (input: HttpInput, answer: HttpAnswer) => Outcome) {
    this.server = server;
    this.judge = judge;
  }

  async run(input: HttpInput): Promise<Outcome> {
    await this.server.ready();
    const { path, headers } = withAuth(this.server, input);
    const epoch = this.server.restarts;
    const res = await httpRequest(
      this.agent,
      this.server.port,
      input.method,
      path,
      headers,
      input.body,
    );
    if ('error' in res) {
      if (res.harness) return { status: 'harness', violations: [`harness: ${res.error.message}`] };
      const failure = await this.server.diagnose(epoch);
      if (failure) return { status: kindOf(failure), violations: [failure] };
      // The server may answer 413 and close before it has read an oversized body.
      if (byteLength(input.body) > BODY_LIMIT && /EPIPE|ECONNRESET/.test(res.error.code ?? ''))
        return { status: 'closed (body over the limit)', violations: [] };
      return { status: 'no answer', violations: [`no-answer: ${res.error.message}`] };
    }
    return this.judge(input, res);
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

function contentTypeOf(res: HttpAnswer): string {
  return String(res.headers['content-type'] ?? '');
}

/** The checks every Pipit error answer gets (not HEAD): JSON response message with errors. */
function checkErrorAnswer(res: HttpAnswer): { violations: string[]; body?: unknown } {
  const v: string[] = [];
  if (!/^application\/json/.test(contentTypeOf(res)))
    v.push(`content-type: ${res.status} answered as "${contentTypeOf(res)}"`);
  const parsed = parseJson(res.body.toString());
  if (!parsed.ok)
    return { violations: [...v, `shape: the body is not JSON: ${clip(res.body.toString())}`] };
  const shape = checkResponseMessage(parsed.value, 'http');
  if (shape.length) return { violations: [...v, ...shape] };
  if (res.status !== 200 && errorsOf(parsed.value).length === 0)
    v.push(`shape: a ${res.status} answer with no errors`);
  return { violations: v, body: parsed.value };
}

/** A browser navigating to a page that is not a route gets the web UI (README: Web UI). */
function isUiPage(input: HttpInput, res: HttpAnswer): boolean {
  return (
    input.method === 'GET' &&
    /text\/html/.test(input.headers.accept ?? '') &&
    res.status === 200 &&
    /^text\/html/.test(contentTypeOf(res))
  );
}

/** `POST /execute`: documented status, never 500, a response message, auth, id echo, echo. */
export function judgeExecute(input: HttpInput, res: HttpAnswer): Outcome {
  if (isUiPage(input, res)) return { status: '200 (web UI page)', violations: [] };
  const v: string[] = [];
  if (!DOCUMENTED_STATUSES.has(res.status)) v.push(`status: ${res.status} is not documented`);
  else if (res.status === 500) v.push('status-500: 500 for an input the client controls');
  if (res.status === 200 && INVALID_AUTH.has(input.auth))
    v.push(`auth: 200 with credentials of kind "${input.auth}"`);
  if (res.status === 401 && VALID_AUTH.has(input.auth))
    v.push(`auth: 401 with credentials of kind "${input.auth}"`);
  if (input.method !== 'HEAD') {
    const { violations, body } = checkErrorAnswer(res);
    v.push(...violations);
    if (body !== undefined) {
      const understood = res.status === 200 && input.method === 'POST';
      const executed = checkExecuted(body, understood ? sentMessage(input.body) : undefined, {
        understood,
      });
      // A 500 says "internal error" in its errors: one violation is enough.
      v.push(...executed.filter((m) => res.status !== 500 || kindOf(m) !== 'internal'));
    }
  }
  return { status: String(res.status), violations: v };
}

/** The hook name of a `/hook/...` path, as sent. */
function hookNameOf(path: string): string {
  return path.slice('/hook/'.length).split('?')[0]!;
}

/**
 * `/hook/<name>`: documented status or a listener's (204, 202); failures as response messages; no
 * 500 except from the listener that echoes the body back (a listener failing is documented as 500).
 */
export function judgeHook(input: HttpInput, res: HttpAnswer): Outcome {
  if (isUiPage(input, res) && !/^\/hook\/[^/?]+(\?|$)/.test(input.path))
    return { status: '200 (web UI page)', violations: [] };
  const v: string[] = [];
  const name = hookNameOf(input.path);
  const listened = (LISTENED_HOOKS as readonly string[]).includes(name);
  const head = input.method === 'HEAD';
  const fromListener =
    listened && (res.status === 204 || (name === 'fuzzanswer' && res.status === 202));
  if (!DOCUMENTED_STATUSES.has(res.status) && !fromListener)
    v.push(`status: ${res.status} is not documented`);
  if (res.status === 500 && name !== 'fuzzdata')
    v.push('status-500: 500 for an input the client controls');
  if (res.status >= 400 && !head) v.push(...checkErrorAnswer(res).violations);
  if (!head && res.status === 200 && name === 'fuzz') {
    const parsed = parseJson(res.body.toString());
    if (!parsed.ok || JSON.stringify(parsed.value) !== '{"x":1}')
      v.push(`answer: hook "fuzz" answered ${clip(res.body.toString())}, not {"x":1}`);
  }
  if (
    !head &&
    res.status === 202 &&
    (res.body.toString() !== 'accepted' || res.headers['x-fuzz'] !== 'yes')
  )
    v.push(`answer: hook "fuzzanswer" answered ${clip(res.body.toString())}`);
  if (res.status === 204 && res.body.length) v.push('answer: a 204 with a body');
  if (
    !head &&
    res.status === 200 &&
    /json/.test(contentTypeOf(res)) &&
    !parseJson(res.body.toString()).ok
  )
    v.push(`answer: a JSON answer that does not parse: ${clip(res.body.toString())}`);
  return { status: String(res.status), violations: v };
}

// ---------------------------------------------------------------------------------------------
// WebSockets

type Received =
  | { frame: Buffer; binary: boolean }
  | { closed: { code: number; reason: string } }
  | { timeout: true };

/** A client socket whose frames are queued and awaited one at a time. */
class WsConnection {
  readonly ws: WebSocket;
  readonly queue: Array<{ frame: Buffer; binary: boolean }> = [];
  closed: { code: number; reason: string } | undefined;
  private waiter: ((r: Received) => void) | undefined;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer, binary) => {
      const frame = { frame: data, binary };
      if (this.waiter) this.take()(frame);
      else this.queue.push(frame);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      if (this.waiter) this.take()({ closed: this.closed });
    });
    ws.on('error', () => undefined);
  }

  private take(): (r: Received) => void {
    const w = this.waiter!;
    this.waiter = undefined;
    return w;
  }

  static open(url: string, headers: Record<string, string>): Promise<WsConnection | Error> {
    const ws = new WebSocket(url, { headers, maxPayload: 64 * 1024 * 1024 });
    const conn = new WsConnection(ws);
    return new Promise((resolve) => {
      ws.once('open', () => resolve(conn));
      ws.once('unexpected-response', (_req, res) =>
        resolve(new Error(`the upgrade was answered ${res.statusCode}`)),
      );
      ws.once('error', (err) => resolve(err));
    });
  }

  /** The next frame (queued or to come), the close, or a timeout. */
  next(timeoutMs = FRAME_TIMEOUT_MS): Promise<Received> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve({ closed: this.closed });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve({ timeout: true });
      }, timeoutMs);
      this.waiter = (r) => {
        clearTimeout(timer);
        resolve(r);
      };
    });
  }

  send(data: string | Uint8Array, binary: boolean): void {
    this.ws.send(data, { binary });
  }

  terminate(): void {
    this.ws.terminate();
  }
}

const WS_VALID: ReadonlySet<AuthKind> = new Set(['valid', 'x-token', 'query']);
// A valid token and a garbled header; HTTP Basic (README lists it for HTTP, not WebSockets).
const WS_EITHER: ReadonlySet<AuthKind> = new Set(['valid-then-garbage', 'basic']);

type WsPath = '/ws/requests' | '/ws/events';

abstract class WsDriver implements Driver<WsInput> {
  protected conn: WsConnection | undefined;
  protected readonly server: FuzzServer;
  protected abstract readonly path: WsPath;

  constructor(server: FuzzServer) {
    this.server = server;
  }

  /** Judges the frame answering a frame input. */
  protected abstract judgeFrame(
    input: WsInput & { kind: 'frame' },
    frame: unknown,
  ): Promise<Outcome>;
  /** A frame that a working connection answers in a known way, and that test. */
  protected abstract probe(): { frame: string; answered: (f: unknown) => boolean };
  /** True when a frame is this endpoint's refusal (an error answer). */
  protected abstract isRefusal(frame: unknown): boolean;

  protected async connection(): Promise<WsConnection | Outcome> {
    if (this.conn && !this.conn.closed) return this.conn;
    const opened = await WsConnection.open(`${this.server.pipit.wsUrl}${this.path}`, {
      authorization: `Bearer ${this.server.token}`,
    });
    if (opened instanceof Error) {
      const failure = await this.server.diagnose();
      if (failure) return { status: kindOf(failure), violations: [failure] };
      return { status: 'refused', violations: [`no-answer: cannot connect: ${opened.message}`] };
    }
    this.conn = opened;
    return opened;
  }

  async run(input: WsInput): Promise<Outcome> {
    await this.server.ready();
    if (input.kind === 'connect') return this.connect(input);
    const conn = await this.connection();
    if (!(conn instanceof WsConnection)) return conn;
    const extra: string[] = [];
    if (conn.queue.length) {
      extra.push(
        `duplicate: an unexpected frame arrived: ${clip(conn.queue[0]!.frame.toString())}`,
      );
      conn.queue.length = 0;
    }
    const epoch = this.server.restarts;
    conn.send(input.data, input.binary);
    const received = await conn.next();
    if ('timeout' in received) {
      conn.terminate();
      this.conn = undefined;
      const failure = await this.server.diagnose(epoch);
      if (failure) return { status: kindOf(failure), violations: [failure] };
      return {
        status: 'no answer',
        violations: [...extra, `no-answer: no frame within ${FRAME_TIMEOUT_MS / 1000} s`],
      };
    }
    if ('closed' in received) {
      this.conn = undefined;
      const { code, reason } = received.closed;
      if (code === 1009 && byteLength(input.data) > BODY_LIMIT)
        return { status: 'close 1009 (frame over the limit)', violations: extra };
      if (code === 1007 && !input.binary && typeof input.data !== 'string' && !isUtf8(input.data))
        return { status: 'close 1007 (invalid UTF-8)', violations: extra };
      const failure = await this.server.diagnose(epoch);
      if (failure) return { status: kindOf(failure), violations: [failure] };
      // The server closes while the client is still writing an oversized frame: the kernel may
      // reset the connection before the close frame is read (TCP, not Pipit).
      if (code === 1006 && byteLength(input.data) > BODY_LIMIT)
        return { status: 'reset (frame over the limit)', violations: extra };
      return {
        status: `close ${code}`,
        violations: [...extra, `close: the server closed the socket with ${code} ${clip(reason)}`],
      };
    }
    if (received.binary)
      return { status: 'binary', violations: [...extra, 'shape: a binary frame answered'] };
    const parsed = parseJson(received.frame.toString());
    if (!parsed.ok)
      return {
        status: 'not JSON',
        violations: [
          ...extra,
          `shape: a frame that is not JSON: ${clip(received.frame.toString())}`,
        ],
      };
    const outcome = await this.judgeFrame(input, parsed.value);
    return { status: outcome.status, violations: [...extra, ...outcome.violations] };
  }

  /** A new connection with the input's credentials: it works, or is refused (error, 1008). */
  private async connect(input: WsInput & { kind: 'connect' }): Promise<Outcome> {
    const { path, headers } = withAuth(this.server, {
      auth: input.auth,
      path: this.path,
      headers: input.origin === undefined ? {} : { origin: input.origin },
    });
    const conn = await WsConnection.open(`${this.server.pipit.wsUrl}${path}`, headers);
    if (conn instanceof Error) {
      const failure = await this.server.diagnose();
      if (failure) return { status: kindOf(failure), violations: [failure] };
      return {
        status: 'upgrade refused',
        violations: [`refusal: ${conn.message} (README: a refused connection is still upgraded)`],
      };
    }
    try {
      const probe = this.probe();
      conn.send(probe.frame, false);
      const first = await conn.next();
      const frame = 'frame' in first ? parseJson(first.frame.toString()) : undefined;
      const worked = frame?.ok === true && probe.answered(frame.value);
      const refused = frame?.ok === true && this.isRefusal(frame.value);
      const v: string[] = [];
      if (refused) {
        const close = await conn.next();
        if (!('closed' in close) || close.closed.code !== 1008)
          v.push(`refusal: an error frame not followed by close 1008 (${JSON.stringify(close)})`);
      } else if (!worked) {
        v.push(
          `refusal: neither answered nor refused: ${clip(JSON.stringify('frame' in first ? first.frame.toString() : first))}`,
        );
      }
      if (worked && !WS_VALID.has(input.auth) && !WS_EITHER.has(input.auth))
        v.push(`auth: a connection with credentials of kind "${input.auth}" works`);
      if (refused && WS_VALID.has(input.auth))
        v.push(`auth: a connection with credentials of kind "${input.auth}" is refused`);
      return {
        status: worked ? 'connected' : refused ? 'refused 1008' : 'connect?',
        violations: v,
      };
    } finally {
      conn.terminate();
    }
  }

  async close(): Promise<void> {
    this.conn?.terminate();
  }
}

/** `/ws/requests`: every frame answered by one response message; never an internal error. */
class WsRequestsDriver extends WsDriver {
  protected readonly path = '/ws/requests';

  protected async judgeFrame(input: WsInput & { kind: 'frame' }, frame: unknown): Promise<Outcome> {
    const shape = checkResponseMessage(frame, 'ws');
    if (shape.length) return { status: 'malformed answer', violations: shape };
    const sent = input.binary ? undefined : sentMessage(input.data);
    const v = checkExecuted(frame, sent, { understood: true });
    return { status: errorsOf(frame).length ? 'answer with errors' : 'answer', violations: v };
  }

  protected probe() {
    return {
      frame: '{"type":"request","action":"utils.echo","args":{"probe":1},"id":"probe"}',
      answered: (f: unknown) =>
        isObject(f) &&
        f.id === 'probe' &&
        (f.response as { errors?: unknown[] })?.errors?.length === 0,
    };
  }

  protected isRefusal(frame: unknown): boolean {
    return checkResponseMessage(frame, 'ws').length === 0 && errorsOf(frame).length > 0;
  }
}

/** `/ws/events`: every frame answered by an error frame, a subscribed frame or the event itself. */
class WsEventsDriver extends WsDriver {
  protected readonly path = '/ws/events';

  protected async judgeFrame(input: WsInput & { kind: 'frame' }, frame: unknown): Promise<Outcome> {
    if (!isObject(frame))
      return { status: 'malformed answer', violations: [`shape: ${clip(JSON.stringify(frame))}`] };
    if (frame.type === 'error') {
      const errors = frame.errors;
      if (!Array.isArray(errors) || errors.length === 0)
        return { status: 'error frame', violations: ['shape: an error frame without errors'] };
      const v = checkErrors(errors);
      if (errors.some((e) => typeof e === 'string' && /internal error/i.test(e)))
        v.push(`internal: an error frame reports an internal error: ${clip(errors.join(' | '))}`);
      return { status: 'error frame', violations: v };
    }
    if (frame.type === 'subscribed') {
      const v: string[] = [];
      if (!Array.isArray(frame.events) || frame.events.some((e) => typeof e !== 'string'))
        v.push(`shape: a subscribed frame without a list of kinds: ${clip(JSON.stringify(frame))}`);
      // Back to every kind, so that the next event published is echoed to this socket.
      const conn = this.conn!;
      conn.send('{"type":"subscribe","events":[]}', false);
      const reset = await conn.next();
      const ok = 'frame' in reset && parseJson(reset.frame.toString());
      if (!ok || !ok.ok || (ok.value as { type?: string }).type !== 'subscribed')
        v.push(
          `reset: subscribing to every kind was answered ${clip(JSON.stringify('frame' in reset ? reset.frame.toString() : reset))}`,
        );
      return { status: 'subscribed', violations: v };
    }
    if (frame.type === 'event') {
      const v: string[] = [];
      if (typeof frame.id !== 'string') v.push('shape: an event without a string "id"');
      if (frame.origin !== DEVICE_ID)
        v.push(`shape: an event with origin ${clip(JSON.stringify(frame.origin))}`);
      if (typeof frame._timestamp !== 'number') v.push('shape: an event without "_timestamp"');
      if (!isObject(frame.args) || typeof frame.args.type !== 'string')
        v.push('shape: an event without "args.type"');
      const id = expectedId(input.binary ? undefined : sentMessage(input.data));
      if (id !== undefined && frame.id !== id)
        v.push(
          `id: sent id ${clip(JSON.stringify(id))}, the event came back as ${clip(JSON.stringify(frame.id))}`,
        );
      return { status: 'event echoed', violations: v };
    }
    return {
      status: 'malformed answer',
      violations: [`shape: an unknown frame ${clip(JSON.stringify(frame))}`],
    };
  }

  protected probe() {
    return {
      frame: '{"type":"subscribe","events":[]}',
      answered: (f: unknown) => isObject(f) && f.type === 'subscribed',
    };
  }

  protected isRefusal(frame: unknown): boolean {
    return (
      isObject(frame) &&
      frame.type === 'error' &&
      Array.isArray(frame.errors) &&
      frame.errors.length > 0
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Endpoints and the campaign

export type EndpointName = 'execute' | 'ws-requests' | 'ws-events' | 'hook';

/** Any input of any endpoint. */
export type FuzzInput = HttpInput | WsInput;

/** An endpoint under fuzz: its generator, its driver, how many streams run at once. */
export interface EndpointSpec {
  name: EndpointName;
  arb: fc.Arbitrary<FuzzInput>;
  /** Concurrent streams (each sequential). /ws/events has one: events fan out to every socket. */
  concurrency: number;
  driver(server: FuzzServer): Driver<FuzzInput>;
}

/** The four endpoints, in the order they are fuzzed. */
export function endpoints(concurrency: number): EndpointSpec[] {
  return [
    {
      name: 'execute',
      arb: executeInput,
      concurrency,
      driver: (s) => new HttpDriver(s, judgeExecute),
    },
    {
      name: 'ws-requests',
      arb: wsRequestsInput,
      concurrency,
      driver: (s) => new WsRequestsDriver(s),
    },
    {
      name: 'ws-events',
      arb: wsEventsInput,
      concurrency: 1,
      driver: (s) => new WsEventsDriver(s),
    },
    {
      name: 'hook',
      arb: hookInput,
      concurrency,
      driver: (s) => new HttpDriver(s, judgeHook),
    },
  ];
}

/** One input that broke a property, where to replay it from, and what was wrong. */
export interface Violation {
  endpoint: EndpointName;
  kind: string;
  /** endpoint, kind and the input's label: failures grouped by cause. */
  signature: string;
  messages: string[];
  input: FuzzInput;
  seed: number;
  index: number;
}

/** What a campaign over one endpoint saw. */
export interface EndpointReport {
  endpoint: EndpointName;
  inputs: number;
  ms: number;
  /** Answers by status (HTTP status, or the kind of WebSocket answer). */
  counts: Record<string, number>;
  /** Violations by signature: how many, and the first few to replay. */
  bySignature: Map<string, { count: number; samples: Violation[] }>;
  /** Known-good requests, made every `checkEvery` inputs, that were not answered right. */
  downs: string[];
}

/**
 * Runs `runs` generated inputs through an endpoint's driver in `spec.concurrency` streams (each its
 * own fast-check run, seeded `seed + stream`), counting answers and collecting violations. The
 * server is asked a known-good request every `checkEvery` inputs of a stream.
 */
export async function fuzzEndpoint(
  server: FuzzServer,
  spec: EndpointSpec,
  opts: { runs: number; seed: number; checkEvery?: number; onProgress?: (done: number) => void },
): Promise<EndpointReport> {
  const started = Date.now();
  const report: EndpointReport = {
    endpoint: spec.name,
    inputs: 0,
    ms: 0,
    counts: {},
    bySignature: new Map(),
    downs: [],
  };
  const checkEvery = opts.checkEvery ?? 250;
  const streams = Math.max(1, Math.min(spec.concurrency, opts.runs));
  await Promise.all(
    Array.from({ length: streams }, async (_, stream) => {
      const numRuns = Math.floor(opts.runs / streams) + (stream < opts.runs % streams ? 1 : 0);
      if (!numRuns) return;
      const seed = (opts.seed + stream) | 0;
      const driver = spec.driver(server);
      let index = 0;
      const details = await fc.check(
        fc.asyncProperty(spec.arb, async (input) => {
          const at = index++;
          const out = await driver.run(input);
          report.inputs++;
          report.counts[out.status] = (report.counts[out.status] ?? 0) + 1;
          for (const kind of new Set(out.violations.map(kindOf))) {
            // A crash fails every input in flight: one signature, and enough samples to find
            // the input that reproduces it alone.
            const whole = SERVER_WIDE.has(kind);
            const signature = `${spec.name} | ${kind}${whole ? '' : ` | ${input.label}`}`;
            const entry = report.bySignature.get(signature) ?? { count: 0, samples: [] };
            entry.count++;
            if (entry.samples.length < (whole ? 4 * streams : 3)) {
              entry.samples.push({
                endpoint: spec.name,
                kind,
                signature,
                messages: out.violations.filter((m) => kindOf(m) === kind),
                input,
                seed,
                index: at,
              });
            }
            report.bySignature.set(signature, entry);
          }
          if (index % checkEvery === 0) {
            await server.ready();
            const down = await server.knownGood();
            if (down) report.downs.push(`${down} (after input ${at} of stream ${stream})`);
          }
          opts.onProgress?.(report.inputs);
          return true;
        }),
        { seed, numRuns },
      );
      await driver.close();
      if (details.failed)
        throw new Error(`the fuzz harness itself failed:\n${fc.defaultReportMessage(details)}`);
    }),
  );
  report.ms = Date.now() - started;
  return report;
}

/** A failure replayed alone and shrunk to a minimal input. */
export interface Shrunk {
  signature: string;
  count: number;
  reproduced: boolean;
  input?: FuzzInput;
  messages: string[];
  shrinks: number;
  interrupted: boolean;
}

/**
 * Replays the failures of each signature alone (nothing else running), in order of frequency, up
 * to `maxSignatures`, and shrinks the first that reproduces to a minimal input with the same kind
 * of violation. A failure that does not reproduce alone was collateral (say, of a crash).
 */
export async function shrinkFailures(
  server: FuzzServer,
  specs: EndpointSpec[],
  reports: EndpointReport[],
  opts: { maxSignatures: number; timeLimitMs: number },
): Promise<Shrunk[]> {
  // Crashes and hangs first, then the most frequent.
  const rank = (signature: string, count: number) =>
    (SERVER_WIDE.has(signature.split(' | ')[1]!) ? 1e12 : 0) + count;
  const all = reports
    .flatMap((r) => [...r.bySignature.entries()])
    .sort((a, b) => rank(b[0], b[1].count) - rank(a[0], a[1].count));
  const out: Shrunk[] = [];
  for (const [signature, { count, samples }] of all.slice(0, opts.maxSignatures)) {
    let result: Shrunk = {
      signature,
      count,
      reproduced: false,
      messages: samples[0]!.messages,
      shrinks: 0,
      interrupted: false,
    };
    const deadline = Date.now() + opts.timeLimitMs;
    for (const sample of samples) {
      if (Date.now() >= deadline) {
        result = { ...result, interrupted: true };
        break;
      }
      const spec = specs.find((s) => s.name === sample.endpoint)!;
      const driver = spec.driver(server);
      let lastMessages: string[] = [];
      const details = await fc.check(
        fc.asyncProperty(spec.arb, async (input) => {
          const outcome = await driver.run(input);
          const hit = outcome.violations.filter((m) => kindOf(m) === sample.kind);
          if (hit.length) {
            lastMessages = hit;
            throw new Error(hit.join('\n'));
          }
        }),
        {
          seed: sample.seed,
          path: String(sample.index),
          numRuns: 1,
          plugins: [fc.interruptAfterTimeLimit(deadline - Date.now())],
        },
      );
      await driver.close();
      if (details.failed && details.counterexample) {
        result = {
          signature,
          count,
          reproduced: true,
          input: (details.counterexample as [FuzzInput])[0],
          messages: messagesOf(details.errorInstance) ?? lastMessages,
          shrinks: details.numShrinks,
          interrupted: details.interrupted,
        };
        break;
      }
      if (details.interrupted) {
        result = { ...result, interrupted: true };
        break;
      }
    }
    out.push(result);
  }
  return out;
}

function messagesOf(err: unknown): string[] | undefined {
  return err instanceof Error ? err.message.split('\n') : undefined;
}

/** A readable one-paragraph description of an input. */
export function describeInput(input: FuzzInput): string {
  const data = (d: string | Uint8Array | undefined) =>
    d === undefined
      ? '(none)'
      : typeof d === 'string'
        ? `${clip(JSON.stringify(d), 400)}${textDepth(d) > 20 ? ` (nesting depth ${textDepth(d, Infinity)})` : ''}`
        : `<${d.byteLength} bytes: ${Buffer.from(d.subarray(0, 48)).toString('hex')}${d.byteLength > 48 ? '…' : ''}>`;
  if ('method' in input) {
    return `${input.method} ${clip(input.path, 200)} auth=${input.auth} headers=${clip(JSON.stringify(input.headers), 200)} body=${data(input.body)}`;
  }
  if (input.kind === 'connect')
    return `connect with credentials "${input.auth}"${input.origin === undefined ? '' : ` origin ${JSON.stringify(input.origin)}`}`;
  return `${input.binary ? 'binary' : 'text'} frame ${data(input.data)}`;
}

/** The counts of a report as aligned lines. */
export function formatCounts(report: EndpointReport): string {
  const rows = Object.entries(report.counts).sort((a, b) => b[1] - a[1]);
  return rows.map(([status, n]) => `    ${status.padEnd(36)} ${String(n).padStart(8)}`).join('\n');
}

/** Everything found, for an assertion message or the console. */
export function formatFailures(reports: EndpointReport[], shrunk: Shrunk[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    for (const d of r.downs) lines.push(`[${r.endpoint}] ${d}`);
    for (const [signature, { count, samples }] of r.bySignature) {
      const s = shrunk.find((x) => x.signature === signature);
      lines.push(`[${signature}] ${count}x`);
      if (s?.reproduced) {
        lines.push(
          `    minimal input (${s.shrinks} shrinks${s.interrupted ? ', interrupted' : ''}): ${describeInput(s.input!)}`,
        );
        for (const m of s.messages.slice(0, 3)) lines.push(`    → ${clip(m, 500)}`);
      } else {
        lines.push(`    first input: ${describeInput(samples[0]!.input)}`);
        for (const m of samples[0]!.messages.slice(0, 3)) lines.push(`    → ${clip(m, 500)}`);
        if (s?.interrupted) lines.push('    (not replayed: out of time)');
        else if (s) lines.push('    (did not reproduce alone: collateral of another failure?)');
      }
    }
  }
  return lines.join('\n');
}
