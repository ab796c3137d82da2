import { PipitError } from '../api/index.ts';
import type { Z2mDevice } from './network.ts';

interface Waiter<T> {
  resolve(value: T): void;
  reject(err: Error): void;
}

/** A wait for a device's next state message. */
export interface StateWait {
  promise: Promise<Record<string, unknown>>;
  id: number;
}

/**
 * The requests waiting for Zigbee2MQTT: bridge responses by transaction id, and device state
 * messages by IEEE address. Each wait ends with its answer, a TIMEOUT, or the caller giving up.
 *
 * @example
 * const data = await pending.expectResponse('permit_join', 'pipit-1', 10_000);
 */
export class Pending {
  private readonly responses = new Map<string, Waiter<unknown> & { name: string }>();
  private readonly states = new Map<
    number,
    Waiter<Record<string, unknown>> & { ieee: string; property: string | undefined }
  >();
  private nextId = 0;

  private readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  expectResponse(
    name: string,
    transaction: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return this.wait(
      (w) => this.responses.set(transaction, { ...w, name }),
      () => this.responses.delete(transaction),
      timeoutMs,
      signal,
      `zigbee.mqtt: no answer on ${this.prefix}/bridge/response/${name} within ${timeoutMs / 1000} s: is Zigbee2MQTT running? (raise "timeout" for a slow network)`,
    );
  }

  expectState(
    device: Z2mDevice,
    property: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): StateWait {
    const id = ++this.nextId;
    const promise = this.wait<Record<string, unknown>>(
      (w) => this.states.set(id, { ...w, ieee: device.ieee_address, property }),
      () => this.states.delete(id),
      timeoutMs,
      signal,
      `zigbee.mqtt: the device "${device.friendly_name}" did not publish ${property ? `"${property}"` : 'its state'} on ${this.prefix}/${device.friendly_name} within ${timeoutMs / 1000} s (asleep, out of range, or the property cannot be read)`,
    );
    return { promise, id };
  }

  cancel(transaction: string, err: Error): void {
    this.responses.get(transaction)?.reject(err);
  }

  cancelState(wait: StateWait, err: Error): void {
    this.states.get(wait.id)?.reject(err);
  }

  onResponse(name: string, payload: unknown): void {
    const body = payload as {
      transaction?: unknown;
      status?: unknown;
      data?: unknown;
      error?: unknown;
    };
    if (!body || typeof body !== 'object' || typeof body.transaction !== 'string') return;
    const w = this.responses.get(body.transaction);
    if (!w || w.name !== name) return;
    if (body.status === 'ok') w.resolve(body.data ?? {});
    else
      w.reject(
        new PipitError(
          'UPSTREAM_ERROR',
          `zigbee.mqtt: Zigbee2MQTT refused bridge/request/${name}: ${typeof body.error === 'string' ? body.error : 'no reason given'}`,
        ),
      );
  }

  onState(device: Z2mDevice, payload: unknown): void {
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return;
    const state = payload as Record<string, unknown>;
    for (const w of [...this.states.values()])
      if (w.ieee === device.ieee_address && (!w.property || w.property in state)) w.resolve(state);
  }

  /** Ends every wait with `err` (the broker is gone, the plugin stops). */
  failAll(err: Error): void {
    for (const w of [...this.responses.values(), ...this.states.values()]) w.reject(err);
  }

  private wait<T>(
    register: (w: Waiter<T>) => void,
    unregister: () => void,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    timeoutMessage: string,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        unregister();
      };
      const onAbort = () => {
        done();
        reject(new PipitError('ACTION_FAILED', 'zigbee.mqtt: the caller gave up'));
      };
      const timer = setTimeout(() => {
        done();
        reject(new PipitError('TIMEOUT', timeoutMessage));
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      register({
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
    });
  }
}
