import { randomUUID } from 'node:crypto';
import { PipitError, toPipitError } from '../core/errors.ts';
import type { ExecuteOptions, ExecuteResult } from '../core/execute.ts';
import { toJsonLimited } from '../core/json-limits.ts';
import type { Logger } from '../core/logger.ts';
import type { Request } from '../core/messages.ts';
import { runScope } from '../core/runs.ts';
import { isTimeout } from './checks.ts';
import type { Instances } from './instances.ts';
import type { RedisLink } from './link.ts';
import type { Publisher } from './publisher.ts';
import type { Seal } from './seal.ts';
import type { ClusterKeys, ResponseWire, WireCaller } from './wire.ts';

/** What {@link Requests} needs. */
export interface RequestsOptions {
  link: RedisLink;
  seal: Seal;
  /** Publishes on the target's request channel (batched). */
  publisher: Publisher;
  log: Logger;
  instances: Instances;
  keys: ClusterKeys;
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
 * const result = await requests.send({ type: 'request', action: 'utils.echo', target: 'hall' }, { transport: 'http' });
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
    // The caller's time starts now: the lookup of the target counts, and so does a Redis that
    // hangs. Nothing is published once the caller has gone or the deadline has passed.
    const { timeoutMs } = this.#opts;
    const target = request.target!;
    const deadline = Date.now() + timeoutMs;
    const id = `${this.#opts.self.iid}-${(++this.#sequence).toString(36)}`;
    return new Promise<ExecuteResult>((resolve, reject) => {
      let done = false;
      let published = false;
      const settle = (then: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
        then();
      };
      const timer = setTimeout(() => {
        settle(() =>
          reject(
            new PipitError(
              'TIMEOUT',
              published
                ? `instance "${target}" did not answer within ${timeoutMs / 1000} s (stopped, stuck, or too busy); the request may still have run there`
                : `the request for instance "${target}" could not be sent within ${timeoutMs / 1000} s (Redis too slow to answer); it did not run`,
            ),
          ),
        );
      }, timeoutMs);
      const onAbort = () =>
        settle(() =>
          reject(new PipitError('UNAVAILABLE', `the caller gave up waiting for "${target}"`)),
        );
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const pending: Pending = {
        target,
        transport: opts.transport,
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      };
      const proceed = () => !done && Date.now() < deadline;
      this.#dispatch(request, opts, { id, deadline, pending, proceed }).then(
        (sent) => void (published = sent),
        (err: unknown) => pending.reject(toPipitError(err)),
      );
    });
  }

  // Checks the link and the target, then publishes; false when the call ended meanwhile.
  async #dispatch(
    request: Request,
    opts: ExecuteOptions,
    call: { id: string; deadline: number; pending: Pending; proceed: () => boolean },
  ): Promise<boolean> {
    const { link, instances, self } = this.#opts;
    const target = request.target!;
    if (!link.connected) throw this.#unreachable(target);
    if (!link.usable) throw this.#faulty(target);
    const conflict = instances.conflict();
    if (conflict) throw new PipitError('UNAVAILABLE', conflict);
    if (!(await instances.has(target))) {
      if (!link.connected) throw this.#unreachable(target);
      throw new PipitError(
        'NOT_FOUND',
        `no instance named "${target}" in the cluster; known instances: ${instances.names().join(', ')}`,
        { details: { instances: instances.list().map((i) => i.device_id) } },
      );
    }
    if (!call.proceed()) return false;
    const { id, deadline } = call;
    const payload = toJsonLimited(
      {
        v: 1,
        kind: 'request',
        from: self.deviceId,
        iid: self.iid,
        ts: Date.now(),
        nonce: randomUUID(),
        to: target,
        id,
        deadline,
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
    this.#pending.set(id, call.pending);
    this.#opts.publisher.publish(this.#opts.keys.requests(target), sealed).then(
      (receivers) => {
        if (receivers === 0) this.#pending.get(id)?.reject(this.#notListening(target));
        else if (receivers > 1) this.#pending.get(id)?.reject(this.#twins(target, receivers));
      },
      (err: unknown) => this.#pending.get(id)?.reject(this.#unreachable(target, err)),
    );
    return true;
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

  // Two processes subscribed as one device_id (a cloned system): the answer could come from either.
  #twins(target: string, receivers: number): PipitError {
    const message = `${receivers} instances listen as "${target}" (a cloned system?): the request may have run on several of them; give every instance its own device_id`;
    if (!this.#warnedTwins) {
      this.#warnedTwins = true;
      this.#opts.log.error({ target, receivers }, message);
    }
    return new PipitError('UNAVAILABLE', message);
  }

  // Connected, the error is Redis' own (NOPERM, a timeout...): named, not taken for an outage.
  #unreachable(target: string, err?: unknown): PipitError {
    const { link } = this.#opts;
    if (link.connected && err) {
      const why = isTimeout(err)
        ? `did not answer within ${link.commandTimeoutMs / 1000} s`
        : `answered ${err instanceof Error ? err.message : JSON.stringify(err)}`;
      return new PipitError(
        'UNAVAILABLE',
        `cannot send the request to instance "${target}": Redis at ${link.url} ${why}`,
        { cause: err },
      );
    }
    const why = link.state.error ? ` (${link.state.error})` : '';
    return new PipitError(
      'UNAVAILABLE',
      `cannot reach instance "${target}": Redis at ${link.url} is unreachable${why}; this instance still serves its own actions`,
    );
  }

  #faulty(target: string): PipitError {
    const { link } = this.#opts;
    return new PipitError(
      'UNAVAILABLE',
      `cannot send the request to instance "${target}": ${link.state.faults.join('; ')}`,
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
