import { RecentEvents } from './recent.ts';
import { CoreKinds, EventKinds, presentKind } from './kinds.ts';
import type { ClaimOptions } from '../core/cluster-port.ts';
import type { EventBus, Subscriber } from './bus.ts';
import { makeEvent } from './event.ts';
import type { PipitEvent } from './event.ts';
import { Hooks } from './hooks.ts';
import type { Hook } from './hooks.ts';
import type { Logger } from '../core/logger.ts';
import type { RunObservers } from '../core/runs.ts';
import { toJsonLimited } from '../core/json-limits.ts';

/**
 * Events for the rest of Pipit: the known kinds, the bus, and the hooks that the bus feeds. Web
 * hook events are the exception: their route runs the matching hooks itself (it needs their answer),
 * so the bus only shows them to subscribers.
 *
 * @example
 * await services.events.emit('CustomEvent', { subtype: 'door_open', args: { door: 'front' } });
 */
export class Events {
  readonly kinds = new EventKinds();
  readonly hooks: Hooks;
  readonly bus: EventBus;
  /** The newest events delivered here, for `/ws/events?history=N`. */
  readonly recent = new RecentEvents();
  private readonly origin: string;
  private readonly namespace: 'pipit' | 'platypush';
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(opts: {
    bus: EventBus;
    origin: string;
    log: Logger;
    namespace?: 'pipit' | 'platypush';
    /** Records hook runs (see Hooks). */
    runs?: RunObservers;
    /** The cluster's lock for `once: true` hooks (without a cluster they simply run). */
    claim?: (key: string, opts?: ClaimOptions) => Promise<boolean>;
  }) {
    this.namespace = opts.namespace ?? 'pipit';
    this.bus = opts.bus;
    this.origin = opts.origin;
    this.hooks = new Hooks(opts.log, opts.runs);
    this.bus.subscribe((delivery) => {
      this.recent.add(delivery);
      const { event, at } = delivery;
      if (event.args.type === CoreKinds.WebhookEvent) return;
      // Most events match no hook (fan-out to WebSockets is the common case): nothing to track.
      const matching = this.hooks.matching(event);
      if (!matching.length) return;
      const claim = opts.claim;
      const run =
        claim && matching.some((h) => h.once)
          ? this.runClaimed(matching, event, at, claim)
          : this.hooks.runAll(matching, event);
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    });
  }

  // A `once: true` hook runs where its lock (hook name + event id) is taken: one instance. `at`
  // (when the event was published) lets the lock refuse a claim made too late to be sure.
  private async runClaimed(
    matching: Hook[],
    event: PipitEvent,
    at: number | undefined,
    claim: (key: string, opts?: ClaimOptions) => Promise<boolean>,
  ): Promise<unknown> {
    const claimed = await Promise.all(
      matching.map(async (h) => !h.once || (await claim(`hook:${h.name}:${event.id}`, { at }))),
    );
    return this.hooks.runAll(
      matching.filter((_, i) => claimed[i]),
      event,
    );
  }

  /**
   * Publishes an event message to subscribers (WebSockets) and hooks. An event that cannot be JSON
   * (nested past the depth limit, circular, holding a BigInt) is refused here with BAD_REQUEST,
   * before anyone is told of it, rather than silently lost on its way to subscribers.
   *
   * `parsed`: the event's fields were parsed from JSON text under the depth limit (a web hook's
   * request), so it is JSON by construction; its text is made only if a subscriber wants it.
   * `local`: for this instance's subscribers only, not the cluster's (a web hook nobody listens
   * to: anyone could otherwise fill the shared stream).
   */
  publish(event: PipitEvent, opts?: { parsed?: boolean; local?: boolean }): Promise<void> {
    const where = opts?.local ? { local: true } : undefined;
    if (opts?.parsed && this.namespace === 'pipit')
      return this.bus.publish(event, undefined, where);
    // Inside, kinds are Pipit's; subscribers get them in the configured namespace.
    const shown =
      this.namespace === 'pipit'
        ? event
        : { ...event, args: { ...event.args, type: presentKind(event.args.type, this.namespace) } };
    const json = toJsonLimited(shown, `the event ${event.args.type}`, 'BAD_REQUEST');
    return this.bus.publish(event, json, where);
  }

  /** Builds and publishes an event of a kind named in any accepted spelling. */
  async emit(kind: string, fields: Record<string, unknown>): Promise<PipitEvent> {
    const event = makeEvent(this.kinds.resolve(kind), fields, this.origin);
    await this.publish(event);
    return event;
  }

  subscribe(subscriber: Subscriber): () => void {
    return this.bus.subscribe(subscriber);
  }

  /** Resolves once the hooks started so far have finished (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }
}

declare module '../core/services.ts' {
  interface ServiceParts {
    /** Event kinds, the bus and the hooks it feeds. */
    events: Events;
  }
}
