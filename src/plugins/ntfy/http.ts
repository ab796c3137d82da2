import { PipitError, networkCause } from '../api/index.ts';

/** One request to an ntfy server, with everything needed to explain its failure. */
export interface NtfyRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string | ReadableStream<Uint8Array>;
  timeoutMs: number;
  /** The caller's signal: aborted when it gives up. */
  signal?: AbortSignal;
  /** "publishing to alerts", for messages. */
  what: string;
  /** What to fix when the server refuses the credentials ("ntfy.token"...). */
  credentials: string;
}

/** ntfy's error answer: `{"code":40101,"http":401,"error":"unauthorized","link":"..."}`. */
interface NtfyErrorBody {
  code?: number;
  error?: string;
  link?: string;
}

const MAX_ANSWER_BYTES = 1 << 20;

/**
 * Sends a request and answers its JSON, or throws a PipitError that says what failed: TIMEOUT
 * (no answer within `timeoutMs`), UPSTREAM_ERROR (unreachable, 401/403 naming the credentials to
 * fix, 429 and 5xx with ntfy's own text), INVALID_ARGUMENTS (the server refused the message: 400).
 *
 * @example
 * const message = await ntfyJson({ url: 'https://ntfy.sh/', method: 'POST', headers: {}, body,
 *   timeoutMs: 10_000, what: 'publishing to alerts', credentials: 'ntfy.token' });
 */
export async function ntfyJson(req: NtfyRequest): Promise<unknown> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
  let status: number;
  let text: string;
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body === undefined ? {} : { body: req.body, duplex: 'half' }),
      signal,
      redirect: 'error',
    });
    status = res.status;
    text = await readLimited(res);
  } catch (err) {
    throw networkError(err, req, deadline);
  }
  if (status >= 200 && status < 300) {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new PipitError(
        'UPSTREAM_ERROR',
        `ntfy: ${req.what}: the server at ${origin(req.url)} answered ${status} with something that is not JSON: is server_url an ntfy server?`,
        { cause: err },
      );
    }
  }
  throw statusError(status, text, req);
}

/** The PipitError of a request that got no answer. */
export function networkError(err: unknown, req: NtfyRequest, deadline: AbortSignal): PipitError {
  if (req.signal?.aborted)
    return new PipitError('ACTION_FAILED', `ntfy: ${req.what}: the caller gave up`, { cause: err });
  if (deadline.aborted)
    return new PipitError(
      'TIMEOUT',
      `ntfy: ${req.what}: ${origin(req.url)} did not answer within ${req.timeoutMs / 1000} s (ntfy.timeout_seconds)`,
      { cause: err },
    );
  return new PipitError(
    'UPSTREAM_ERROR',
    `ntfy: ${req.what}: cannot reach ${origin(req.url)}: ${networkCause(err)}`,
    { cause: err },
  );
}

/** The PipitError of an answer with an error status, carrying ntfy's own text. */
export function statusError(status: number, text: string, req: NtfyRequest): PipitError {
  const body = parseError(text);
  const said = body?.error ?? (text.trim().slice(0, 200) || 'no details');
  const details = { status, ...(body?.code ? { ntfy_code: body.code } : {}) };
  const where = `ntfy at ${origin(req.url)}`;
  if (status === 401 || status === 403)
    return new PipitError(
      'UPSTREAM_ERROR',
      `${where} refused ${req.what}: ${status} ${said}: check ${req.credentials}`,
      { details },
    );
  if (status === 400 || status === 413)
    return new PipitError(
      'INVALID_ARGUMENTS',
      `${where} refused ${req.what}: ${said}${body?.link ? ` (see ${body.link})` : ''}`,
      { details },
    );
  const hint = status === 429 ? ': the server limits requests, try again later' : '';
  return new PipitError('UPSTREAM_ERROR', `${where} failed ${req.what}: ${status} ${said}${hint}`, {
    details,
  });
}

function parseError(text: string): NtfyErrorBody | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

async function readLimited(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `https://ntfy.example.com` of a URL (never its credentials or query). */
export function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
