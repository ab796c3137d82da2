import { randomUUID } from 'node:crypto';
import { PipitError, toPipitError } from '../core/errors.ts';
import type { Execute, ExecuteResult } from '../core/execute.ts';
import type { Logger } from '../core/logger.ts';
import { buildResponse } from '../core/messages.ts';
import { responseJson } from '../core/response-json.ts';
import type { Caller } from '../core/runs.ts';
import type { Publisher } from './publisher.ts';
import { payloadJson } from './seal.ts';
import type { Seal } from './seal.ts';
import type { ClusterKeys, RequestWire } from './wire.ts';

/** What {@link serveRequest} needs. */
export interface ServeOptions {
  seal: Seal;
  /** Publishes on the caller's reply channel (batched). */
  publisher: Publisher;
  self: { deviceId: string; iid: string };
  log: Logger;
  keys: ClusterKeys;
  execute: () => Execute;
  /** Why requests routed here are refused right now (a twin with this device_id), or null. */
  refusal: () => string | null;
}

/**
 * Who a request from another instance runs as: the caller its (verified) message names, with the
 * instance it came through (`token@kitchen`), or the sending instance itself for its hooks, crons
 * and scripts. A token id is dropped: it belongs to the other instance's database.
 *
 * @example
 * callerOf(msg); // { user: 'ada', via: 'token@kitchen' }
 */
export function callerOf(msg: RequestWire): Caller {
  return msg.caller
    ? { user: msg.caller.user, via: `${msg.caller.via}@${msg.from}` }
    : { user: msg.from, via: 'instance' };
}

/**
 * Runs a request that came from another instance through this instance's `execute()`, as its
 * original caller, aborted at the caller's deadline, and publishes the sealed answer on the
 * caller's reply channel. A request past its deadline is dropped; one that arrives while this
 * instance shares its device_id with another is answered UNAVAILABLE without running.
 *
 * @example
 * await serveRequest(msg, { seal, publisher, self, log, keys, execute: () => services.execute, refusal: () => null });
 */
export async function serveRequest(msg: RequestWire, opts: ServeOptions): Promise<void> {
  const { seal, self, log } = opts;
  const request = {
    type: 'request',
    action: msg.request.action,
    ...(msg.request.args ? { args: msg.request.args } : {}),
    ...(msg.request.id !== undefined ? { id: msg.request.id } : {}),
  };
  // Its caller has given up: it never runs (its answer would reach nobody).
  if (Date.now() >= msg.deadline) {
    log.debug(
      { from: msg.from, action: msg.request.action },
      'dropped a request past its deadline',
    );
    return;
  }
  const refusal = opts.refusal();
  let result: ExecuteResult;
  // Aborted at the caller's deadline; the timer goes with the request (AbortSignal.timeout's
  // would outlive it and fire seconds later, once for every request served).
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(
        new PipitError('TIMEOUT', `the caller's deadline passed (from "${msg.from}")`),
      ),
    Math.max(1, msg.deadline - Date.now()),
  );
  try {
    if (refusal) throw new PipitError('UNAVAILABLE', refusal);
    result = await opts.execute()(request, {
      transport: 'cluster',
      caller: callerOf(msg),
      depth: msg.depth,
      signal: deadline.signal,
    });
  } catch (err) {
    // execute() answers every failure as a response; a throw is a bug, still answered.
    if (!refusal)
      log.error(
        { err, action: msg.request.action },
        'execute() threw on a request from the cluster',
      );
    const error = toPipitError(err);
    result = {
      message: buildResponse({
        id: msg.request.id,
        target: 'cluster',
        origin: self.deviceId,
        output: undefined,
        errors: [error.message],
      }),
      error,
    };
  } finally {
    clearTimeout(timer);
  }
  const { json, result: sent } = responseJson(result);
  const fields = {
    v: 1,
    kind: 'response',
    from: self.deviceId,
    iid: self.iid,
    ts: Date.now(),
    nonce: randomUUID(),
    to: msg.from,
    id: msg.id,
    code: sent.error?.code ?? null,
  };
  try {
    // Nobody receiving (the caller stopped meanwhile) needs nothing more: it has its error.
    await opts.publisher.publish(
      opts.keys.replies(msg.from),
      seal.seal(payloadJson(fields, 'message', json)),
    );
  } catch (err) {
    log.warn(
      { err, to: msg.from, action: msg.request.action },
      `could not send the answer to "${msg.from}" (Redis unreachable): it will time out there`,
    );
  }
}
