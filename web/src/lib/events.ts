/** An event message as `/ws/events` delivers it. */
export interface EventMessage {
  type: 'event';
  id?: string;
  origin?: string;
  target?: string;
  _timestamp?: number;
  args: { type: string; subtype?: string; [key: string]: unknown };
}

/** The short kind of an event: `pipit.message.event.custom.CustomEvent` → `CustomEvent`. */
export function shortKind(kind: string): string {
  return kind.slice(kind.lastIndexOf('.') + 1);
}

/** True for a well-formed event message. */
export function isEventMessage(value: unknown): value is EventMessage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const args = v.args as Record<string, unknown> | undefined;
  return v.type === 'event' && typeof args === 'object' && typeof args?.type === 'string';
}

/** The publish frame for a custom event. */
export function customEventFrame(subtype: string, args: Record<string, unknown>): string {
  return JSON.stringify({ type: 'event', args: { type: 'CustomEvent', subtype, args } });
}

/**
 * Delay before the next reconnection attempt: exponential from 500 ms, capped at 15 s, with
 * jitter so many tabs do not reconnect in step.
 */
export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(15_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.75 + random() * 0.5));
}

/** Appends an event, keeping only the newest `max` (the live view must not grow forever). */
export function appendCapped<T>(list: readonly T[], item: T, max = 500): T[] {
  const next = list.length >= max ? list.slice(list.length - max + 1) : list.slice();
  next.push(item);
  return next;
}
