import { PipitError, networkCause } from '../api/index.ts';

/** One `{"error": ...}` of a v1 answer (the bridge's Error Messages page). */
export interface HueApiError {
  type: number;
  address: string;
  description: string;
}

/** What the plugin says when it has no username for the bridge yet. */
export const NOT_PAIRED =
  "not paired: press the bridge's button, then run light.hue.connect (or Settings → Integrations → Connect)";

/**
 * Calls the bridge's v1 REST API with a bounded timeout. Network failures become UNAVAILABLE,
 * timeouts TIMEOUT, anything but JSON UPSTREAM_ERROR; the bridge's own `[{error}]` answers are
 * returned for the caller to name what failed ({@link errorsOf}, {@link raise}).
 *
 * @example
 * const lights = await client.call('GET', `/api/${username}/lights`);
 */
export class HueClient {
  readonly base: string;
  readonly host: string;
  private readonly timeoutMs: number;
  /** Called with each network failure (the poller marks the link down). */
  onFailure: (err: PipitError) => void = () => {};
  /** Seconds until the next attempt to reach the bridge, for the messages. */
  retryIn: () => number = () => 1;

  constructor(base: string, timeoutSeconds: number) {
    this.base = base;
    this.host = new URL(base).host;
    this.timeoutMs = timeoutSeconds * 1000;
  }

  async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
      text = await res.text();
    } catch (err) {
      throw this.failed(method, path, err, timeout, signal);
    }
    if (res.status < 200 || res.status > 299)
      throw new PipitError(
        'UPSTREAM_ERROR',
        `light.hue: the bridge at ${this.host} answered HTTP ${res.status} to ${method} ${redact(path)}`,
      );
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new PipitError(
        'UPSTREAM_ERROR',
        `light.hue: the bridge at ${this.host} answered ${method} ${redact(path)} with something other than JSON: is "${this.host}" a Hue bridge? (check light.hue.bridge)`,
        { cause: err },
      );
    }
  }

  private failed(
    method: string,
    path: string,
    err: unknown,
    timeout: AbortSignal,
    signal: AbortSignal | undefined,
  ): PipitError {
    if (signal?.aborted && !timeout.aborted)
      return new PipitError('ACTION_FAILED', 'light.hue: the caller gave up', { cause: err });
    const failure = timeout.aborted
      ? new PipitError(
          'TIMEOUT',
          `light.hue: the bridge at ${this.host} did not answer ${method} ${redact(path)} within ${this.timeoutMs / 1000} s (light.hue.timeout_seconds)`,
          { cause: err },
        )
      : new PipitError(
          'UNAVAILABLE',
          `light.hue: the bridge at ${this.host} is not connected: ${networkCause(err, 'code')}; retrying in ${this.retryIn()} s`,
          { cause: err },
        );
    this.onFailure(failure);
    return failure;
  }
}

// The username is in every path after /api/: it is a credential, kept out of messages.
function redact(path: string): string {
  return path.replace(/^\/api\/[^/]+/, '/api/<username>');
}

/** The `{error}` entries of a v1 answer (none for a success or a plain object). */
export function errorsOf(answer: unknown): HueApiError[] {
  if (!Array.isArray(answer)) return [];
  return answer
    .map((entry) => (entry as { error?: HueApiError }).error)
    .filter((e): e is HueApiError => !!e && typeof e.type === 'number');
}

/**
 * Throws the PipitError for the bridge's errors about `subject` ("light \"Hue Lamp 1\" (id 1)"):
 * 1 unauthorized → UNAVAILABLE (pair again), 3 not available → NOT_FOUND, 7 invalid value →
 * INVALID_ARGUMENTS, 201 device off → ACTION_FAILED, the rest UPSTREAM_ERROR.
 */
export function raise(errors: HueApiError[], subject: string, host: string): never {
  const first = errors[0]!;
  const all = errors.map((e) => `${e.description} (${e.address || '/'})`).join('; ');
  switch (first.type) {
    case 1:
      throw new PipitError(
        'UNAVAILABLE',
        `light.hue: the bridge at ${host} does not accept Pipit's username any more: ${NOT_PAIRED}`,
      );
    case 3:
      throw new PipitError(
        'NOT_FOUND',
        `light.hue: ${subject} is not on the bridge any more (${all})`,
      );
    case 7:
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `light.hue: the bridge refused a value for ${subject}: ${all}`,
      );
    case 201:
      throw new PipitError(
        'ACTION_FAILED',
        `light.hue: ${subject} is off, so the bridge refused the change (${all}): turn it on first (light.hue.on)`,
      );
    default:
      throw new PipitError(
        'UPSTREAM_ERROR',
        `light.hue: the bridge at ${host} refused the request for ${subject}: ${all}`,
      );
  }
}
