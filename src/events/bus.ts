import type { PipitEvent } from './event.ts';

/**
 * One delivery: the event and its JSON, serialised at most once however many subscribers there are
 * (fan-out to 1,000 WebSockets must not stringify 1,000 times).
 */
export interface Delivery {
  event: PipitEvent;
  json(): string;
  /**
   * When the event was published, on the cluster's clock (epoch ms; a shared bus only): how old
   * it is when a `once` hook claims it.
   */
  at?: number;
}

/** A subscriber; exceptions it throws are caught and logged by the bus. */
export type Subscriber = (delivery: Delivery) => void;

/**
 * Where events go. The in-process bus is the default; a Redis implementation fills the same
 * interface when several instances share one bus.
 */
export interface EventBus {
  /**
   * Delivers to every subscriber (of every instance, for a shared bus); `json` if known. `local`:
   * to this instance's subscribers only (a web hook nobody listens to).
   */
  publish(event: PipitEvent, json?: string, opts?: { local?: boolean }): Promise<void>;
  /** Returns an unsubscribe function. */
  subscribe(subscriber: Subscriber): () => void;
  close(): Promise<void>;
}

/**
 * Makes a delivery whose JSON is computed on first use and then reused.
 *
 * @example
 * const d = delivery(event); d.json() === d.json(); // same string, one JSON.stringify
 */
export function delivery(event: PipitEvent, json?: string): Delivery {
  let cached = json;
  return { event, json: () => (cached ??= JSON.stringify(event)) };
}

/**
 * The in-process bus: synchronous fan-out to subscribers, each isolated from the others' failures.
 *
 * @example
 * const bus = new LocalBus((err) => log.warn({ err }, 'subscriber failed'));
 * bus.subscribe(({ event }) => console.log(event.args.type));
 * await bus.publish(makeEvent(CoreKinds.CustomEvent, { subtype: 'x' }, 'pi'));
 */
export class LocalBus implements EventBus {
  private readonly subscribers = new Set<Subscriber>();
  private readonly onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void) {
    this.onError = onError;
  }

  publish(event: PipitEvent, json?: string): Promise<void> {
    this.deliver(delivery(event, json));
    return Promise.resolve();
  }

  /** Fans a delivery out locally (also used by the Redis bus for messages it receives). */
  deliver(d: Delivery): void {
    for (const subscriber of this.subscribers) {
      try {
        subscriber(d);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  get size(): number {
    return this.subscribers.size;
  }

  close(): Promise<void> {
    this.subscribers.clear();
    return Promise.resolve();
  }
}
