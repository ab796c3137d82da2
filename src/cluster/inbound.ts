import type { z } from 'zod';
import type { Refusals } from './refusals.ts';
import type { ReplayGuard } from './replay.ts';
import type { Seal } from './seal.ts';

function claimedSender(value: unknown): string | undefined {
  if (value && typeof value === 'object' && 'from' in value && typeof value.from === 'string')
    return value.from.slice(0, 64);
  return undefined;
}

/**
 * The one way in for a message read from Redis: the seal is checked on the raw text first (nothing
 * unsigned is even parsed), then the payload is parsed against its schema, then checked against
 * replays. Each refusal is counted and logged by {@link Refusals}; the caller only sees
 * `undefined`.
 *
 * @example
 * const request = inbound.open(text, RequestWire, key);
 * if (request && inbound.fresh(request, Date.now(), key)) serve(request);
 */
export class Inbound {
  readonly #seal: Seal;
  readonly #guard: ReplayGuard;
  readonly refusals: Refusals;

  constructor(opts: { seal: Seal; guard: ReplayGuard; refusals: Refusals }) {
    this.#seal = opts.seal;
    this.#guard = opts.guard;
    this.refusals = opts.refusals;
  }

  /** The payload of a sealed message of the given schema, or undefined (refused). */
  open<S extends z.ZodType>(text: unknown, schema: S, key: string): z.output<S> | undefined {
    if (typeof text !== 'string') {
      this.refusals.refuse('unsigned', { key });
      return undefined;
    }
    const opened = this.#seal.open(text);
    if (!opened.ok) {
      this.refusals.refuse(opened.fault, { key });
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(opened.json);
    } catch {
      this.refusals.refuse('malformed', { key });
      return undefined;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      this.refusals.refuse('malformed', { key, from: claimedSender(value) });
      return undefined;
    }
    return parsed.data;
  }

  /**
   * True when a signed message is fresh and seen for the first time (see ReplayGuard): by the
   * guard given at construction (requests, answers), or by `guard` (events, whose window is the
   * catch-up window).
   */
  fresh(
    msg: { ts: number; nonce: string; from: string },
    now: number,
    key: string,
    guard: ReplayGuard = this.#guard,
  ): boolean {
    const fault = guard.check(msg.ts, msg.nonce, now);
    if (fault) this.refusals.refuse(fault, { key, from: msg.from });
    return !fault;
  }
}
