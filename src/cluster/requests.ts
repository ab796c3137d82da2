import { randomUUID } from 'node:crypto';
import { PipitError } from '../core/errors.ts';
import type { ExecuteOptions, ExecuteResult } from '../core/execute.ts';
import { toJsonLimited } from '../core/json-limits.ts';
import type { Logger } from '../core/logger.ts';
import type { Request } from '../core/messages.ts';
import { runScope } from '../core/runs.ts';
import type { Instances } from './instances.ts';
import type { RedisLink } from './link.ts';
import type { Publisher } from './publisher.ts';
import type { Seal } from './seal.ts';
import { KEYS } from './wire.ts';
import type { ResponseWire, WireCaller } from './wire.ts';

/** What {@link Requests} needs. */
export interface RequestsOptions {
  link: RedisLink;
  seal: Seal;
  /** Publishes on the target's request channel (batched). */
  publisher: Publisher;
  log: Logger;
  instances: Instances;
  self: { deviceId: string; iid: string };
  /** How long a caller waits for the answer. */
  timeoutMs: number;
}

interface Pending {
  target: string;
  transport: string;
  resolve(result: ExecuteResult): void;
  reject(error: PipitError): void;
}

/**
 * The calling side of requests to other instances. A request whose `target` is another instance
 * is sealed with the caller's identity and published on that instance's request channel; its
 * answer comes back on this instance's reply channel (read by the inbox) and settles the call.
 * Without Redis the call fails at once (UNAVAILABLE), as it does when the target is known but not
 * listening; an unknown target is NOT_FOUND naming the known instances; no answer within the
 * timeout (the instance died mid-request, or is stuck) is TIMEOUT.
 *
 * @example
 * const result = await requests.send({ type: 'request', action: 'utils.echo', target: 'hall' }, { target: 'http' });
 */
export class Requests {
  readonly #opts: RequestsOptions;
  readonly #pending = new Map<string, Pending>();
  #sequence = 0;
  #warnedTwins = false;

  constructor(opts: RequestsOptions) {
    this.#opts = opts;
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  async send(request: Request, opts: ExecuteOptions): Promise<ExecuteResult> {
    const { link, instances, self, timeoutMs } = this.#opts;
    const target = request.target!;
    if (!link.connected) throw this.#unreachable(target);
    if (!(await instances.has(target))) {
      if (!link.connected) throw this.#unreachable(target);
      throw new PipitError(
        'NOT_FOUND',
        `no instance named "${target}" in the cluster; known instances: ${instances.names().join(', ')}`,
        { details: { instances: instances.list().map((i) => i.device_id) } },
      );
    }
    const id = `${self.iid}-${(++this.#sequence).toString(36)}`;
    const now = Date.now();
    const payload = toJsonLimited(
      {
        v: 1,
        kind: 'request',
        from: self.deviceId,
        iid: self.iid,
        ts: now,
        nonce: randomUUID(),
        to: target,
        id,
        deadline: now + timeoutMs,
        caller: wireCaller(opts),
        depth: opts.depth ?? 0,
        request: {
          action: request.action,
          ...(request.args ? { args: request.args } : {}),
          ...(request.id !== undefined ? { id: request.id } : {}),
        },
      },
      'the request for another instance',
      'BAD_REQUEST',
    );
    const sealed = this.#opts.seal.seal(payload);
    return new Promise<ExecuteResult>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };
      const timer = setTimeout(() => {
        settle();
        reject(
          new PipitError(
            'TIMEOUT',
            `instance "${target}" did not answer within ${timeoutMs / 1000} s (stopped, stuck, or too busy); the request may still have run there`,
          ),
        );
      }, timeoutMs);
      const onAbort = () => {
        settle();
        reject(new PipitError('UNAVAILABLE', `the caller gave up waiting for "${target}"`));
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        target,
        transport: opts.target,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      this.#opts.publisher.publish(KEYS.requests(target), sealed).then(
        (receivers) => {
          if (receivers === 0) this.#pending.get(id)?.reject(this.#notListening(target));
          else if (receivers > 1) this.#twins(target, receivers);
        },
        () => this.#pending.get(id)?.reject(this.#unreachable(target)),
      );
    });
  }

  /** Settles the call an answer belongs to; answers to calls that gave up are dropped. */
  answer(reply: ResponseWire): boolean {
    const pending = this.#pending.get(reply.id);
    if (!pending || pending.target !== reply.from) return false;
    const message = { ...reply.message, target: pending.transport };
    const errors = message.response.errors;
    pending.resolve(
      reply.code
        ? { message, error: new PipitError(reply.code, errors.join('\n') || reply.code) }
        : { message },
    );
    return true;
  }

  /** Fails every call still waiting (Redis lost, shutdown). */
  failAll(why: string): void {
    for (const pending of [...this.#pending.values()])
      pending.reject(
        new PipitError(
          'UNAVAILABLE',
          `${why} while waiting for "${pending.target}" to answer; the request may or may not have run there`,
        ),
      );
  }

  // Known from its heartbeat, but not subscribed right now: stopped, or reconnecting to Redis.
  #notListening(target: string): PipitError {
    return new PipitError(
      'UNAVAILABLE',
      `instance "${target}" is not listening (it stopped, or lost its connection to Redis); try again when it is back`,
    );
  }

  #twins(target: string, receivers: number): void {
    if (this.#warnedTwins) return;
    this.#warnedTwins = true;
    this.#opts.log.error(
      { target, receivers },
      `${receivers} instances listen as "${target}": each ran the request; give every instance its own device_id`,
    );
  }

  #unreachable(target: string): PipitError {
    const { link } = this.#opts;
    const why = link.state.error ? ` (${link.state.error})` : '';
    return new PipitError(
      'UNAVAILABLE',
      `cannot reach instance "${target}": Redis at ${link.url} is unreachable${why}; this instance still serves its own actions`,
    );
  }
}

// Who asked: the transport's caller, else the one of the run this call is part of (a procedure,
// hook or cron step inherits it); null for an instance's own hooks, crons and scripts.
function wireCaller(opts: ExecuteOptions): WireCaller | null {
  const caller = opts.caller ?? runScope.getStore()?.caller;
  if (!caller) return null;
  return {
    user: caller.user,
    via: caller.via,
    ...(caller.token_id ? { token_id: caller.token_id } : {}),
  };
}
