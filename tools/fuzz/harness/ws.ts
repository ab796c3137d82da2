// WebSockets: the drivers of /ws/requests and /ws/events, which send one input on a kept
// connection (or a new one, for credentials) and judge the answer.
import {
  checkErrors,
  checkExecuted,
  checkResponseMessage,
  clip,
  errorsOf,
  expectedId,
  isObject,
  parseJson,
  sentMessage,
} from '../checks.ts';
import { BODY_LIMIT, DEVICE_ID, isUtf8 } from '../generators.ts';
import type { AuthKind, WsInput } from '../generators.ts';
import { byteLength, withAuth } from './http.ts';
import type { Driver, Outcome } from './http.ts';
import type { FuzzServer } from './server.ts';
import { FRAME_TIMEOUT_MS, kindOf } from './limits.ts';
import { WsConnection } from './ws-connection.ts';

const WS_VALID: ReadonlySet<AuthKind> = new Set(['valid', 'x-token', 'query']);
// A valid token and a garbled header; HTTP Basic (docs/api.md lists it for HTTP, not WebSockets).
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
        violations: [
          `refusal: ${conn.message} (docs/api.md: a refused connection is still upgraded)`,
        ],
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
export class WsRequestsDriver extends WsDriver {
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
export class WsEventsDriver extends WsDriver {
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
