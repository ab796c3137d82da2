// HTTP: one request with real credentials, the driver that sends an input and the judges of
// POST /execute and /hook/<name> answers.
import { Agent, request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import {
  checkExecuted,
  checkResponseMessage,
  clip,
  DOCUMENTED_STATUSES,
  errorsOf,
  parseJson,
  sentMessage,
} from '../checks.ts';
import { BODY_LIMIT, INVALID_AUTH, LISTENED_HOOKS, VALID_AUTH } from '../generators.ts';
import type { AuthKind, HttpInput } from '../generators.ts';
import { PASSWORD, USERNAME } from '../pipit-child.ts';
import type { FuzzServer } from './server.ts';
import { ANSWER_TIMEOUT_MS, kindOf } from './limits.ts';

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function byteLength(data: string | Uint8Array | undefined): number {
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
export function withAuth(
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

export class HttpDriver implements Driver<HttpInput> {
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

/**
 * A browser navigating to a page that is not a route gets the web UI (docs/web-ui.md): 200, or
 * 304 with no body when its `If-None-Match` matches the page's ETag (`*` matches any).
 */
function isUiPage(input: HttpInput, res: HttpAnswer): boolean {
  if (input.method !== 'GET' || !/text\/html/.test(input.headers.accept ?? '')) return false;
  if (!/^text\/html/.test(contentTypeOf(res))) return false;
  if (res.status === 200) return true;
  return (
    res.status === 304 &&
    res.body.length === 0 &&
    input.headers['if-none-match'] !== undefined &&
    typeof res.headers.etag === 'string'
  );
}

/** `POST /execute`: documented status, never 500, a response message, auth, id echo, echo. */
export function judgeExecute(input: HttpInput, res: HttpAnswer): Outcome {
  if (isUiPage(input, res)) return { status: `${res.status} (web UI page)`, violations: [] };
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
    return { status: `${res.status} (web UI page)`, violations: [] };
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
