import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../src/events/bus.ts';
import { RECENT_EVENTS, RecentEvents } from '../../src/events/recent.ts';

const delivery = (n: number): Delivery =>
  ({ event: { n }, json: () => JSON.stringify({ n }) }) as unknown as Delivery;
const ns = (list: Delivery[]) => list.map((d) => (d.event as unknown as { n: number }).n);

describe('the recent events /ws/events?history replays', () => {
  it('keeps the newest, oldest first, and never more than its size', () => {
    const recent = new RecentEvents(3);
    expect(recent.last(10)).toEqual([]);
    recent.add(delivery(1));
    recent.add(delivery(2));
    expect(ns(recent.last(10))).toEqual([1, 2]);
    for (const n of [3, 4, 5]) recent.add(delivery(n));
    expect(ns(recent.last(10))).toEqual([3, 4, 5]);
    expect(ns(recent.last(2))).toEqual([4, 5]);
    expect(recent.last(0)).toEqual([]);
  });

  it('holds 50 by default', () => {
    const recent = new RecentEvents();
    for (let n = 0; n < 120; n++) recent.add(delivery(n));
    expect(RECENT_EVENTS).toBe(50);
    expect(ns(recent.last(1000))).toEqual(Array.from({ length: 50 }, (_, i) => 70 + i));
  });
});
