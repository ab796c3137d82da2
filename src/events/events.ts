import { CoreKinds, EventKinds, presentKind } from './kinds.ts';
import type { EventBus, Subscriber } from './bus.ts';
import { makeEvent } from './event.ts';
import type { PipitEvent } from './event.ts';
import { Hooks } from './hooks.ts';
import type { Logger } from '../core/logger.ts';
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
  private readonly origin: string;
  private readonly namespace: 'pipit' | 'platypush';
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(opts: {
    bus: EventBus;
    origin: string;
    log: Logger;
    namespace?: 'pipit' | 'platypush';
  }) {
    this.namespace = opts.namespace ?? 'pipit';
    this.bus = opts.bus;
    this.origin = opts.origin;
    this.hooks = new Hooks(opts.log);
    this.bus.subscribe(({ event }) => {
      if (event.args.type === CoreKinds.WebhookEvent) return;
      // Most events match no hook (fan-out to WebSockets is the common case): nothing to track.
      const matching = this.hooks.matching(event);
      if (!matching.length) return;
      const run = this.hooks.runAll(matching, event);
      this.inFlight.add(run);
      void run.finally(() => this.inFlight.delete(run));
    });
  }

  /**
   * Publishes an event message to subscribers (WebSockets) and hooks. An event that cannot be JSON
   * (nested past the depth limit, circular, holding a BigInt) is refused here with BAD_REQUEST,
   * before anyone is told of it, rather than silently lost on its way to subscribers.
   */
  publish(event: PipitEvent): Promise<void> {
    // Inside, kinds are Pipit's; subscribers get them in the configured namespace.
    const shown =
      this.namespace === 'pipit'
        ? event
        : { ...event, args: { ...event.args, type: presentKind(event.args.type, this.namespace) } };
    const json = toJsonLimited(shown, `the event ${event.args.type}`, 'BAD_REQUEST');
    return this.bus.publish(event, json);
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
