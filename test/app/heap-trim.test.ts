// Giving memory back after a load: when the policy trims (grown, then quiet, not too often), and
// that the trim really shrinks V8's young generation without exposing `gc` to the service.
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HeapTrimPolicy, memoryReducingGc, TRIM_GROWTH_BYTES } from '../../src/app/heap-trim.ts';

const MB = 2 ** 20;
// A reading at `s` seconds with `cpuS` seconds of CPU used so far and `rss` MB resident.
const at = (s: number, cpuS: number, rss: number) => ({
  atMs: s * 1000,
  cpuMs: cpuS * 1000,
  rssBytes: rss * MB,
});

describe('HeapTrimPolicy', () => {
  it('trims once the service has grown and the last window was quiet', () => {
    const policy = new HeapTrimPolicy();
    expect(policy.shouldTrim(at(0, 0.5, 100))).toBe(false); // the baseline, after the start
    expect(policy.shouldTrim(at(10, 9.5, 180))).toBe(false); // under load: busy
    expect(policy.shouldTrim(at(20, 9.6, 180))).toBe(true); // quiet (1% of a core), grown 80 MB
  });

  it('does not trim a quiet service that has not grown by the threshold', () => {
    const policy = new HeapTrimPolicy();
    policy.shouldTrim(at(0, 0, 100));
    const grown = 100 + TRIM_GROWTH_BYTES / MB - 1;
    expect(policy.shouldTrim(at(10, 0.01, grown))).toBe(false);
  });

  it('does not trim when a burst has just begun after a quiet window', () => {
    const policy = new HeapTrimPolicy();
    policy.shouldTrim(at(0, 0, 100));
    policy.shouldTrim(at(9, 0, 180));
    // 1.5% of a core over the last 10 s, but 15% in the last second: a burst is starting.
    expect(policy.shouldTrim(at(10, 0.15, 180))).toBe(false);
  });

  it('waits for a whole quiet window', () => {
    const policy = new HeapTrimPolicy();
    policy.shouldTrim(at(0, 0, 100));
    expect(policy.shouldTrim(at(5, 0, 200))).toBe(false); // quiet and grown, for 5 s of 10
    expect(policy.shouldTrim(at(10, 0, 200))).toBe(true);
  });

  it('does not trim while the service is busy, however much it has grown', () => {
    const policy = new HeapTrimPolicy();
    policy.shouldTrim(at(0, 0, 100));
    expect(policy.shouldTrim(at(10, 0.3, 250))).toBe(false); // 3% of a core
  });

  it('takes what a trim left as the new baseline, and waits the least interval', () => {
    const policy = new HeapTrimPolicy({ minIntervalMs: 60_000 });
    policy.shouldTrim(at(0, 0, 100));
    expect(policy.shouldTrim(at(10, 0, 180))).toBe(true);
    policy.trimmed(at(10.2, 0.2, 125));
    // Quiet and still above the old baseline, but not grown since the trim: no second trim.
    expect(policy.shouldTrim(at(20.2, 0.2, 130))).toBe(false);
    // Grown again after another load, quiet, but within the interval of the last trim.
    policy.shouldTrim(at(30.2, 9, 190));
    expect(policy.shouldTrim(at(40.2, 9.01, 190))).toBe(false);
    // Past the interval.
    expect(policy.shouldTrim(at(80.2, 9.06, 190))).toBe(true);
  });
});

describe('memoryReducingGc', () => {
  it("shrinks V8's young generation after a burst of allocation, and leaves no gc global", () => {
    const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!;
    // A burst that keeps some of what it allocates alive across scavenges, as requests in flight
    // do: V8 grows the young generation to make room.
    const kept: unknown[][] = [];
    for (let i = 0; i < 1000; i++) {
      const batch: unknown[] = [];
      for (let j = 0; j < 1000; j++) batch.push({ i, j, text: `item ${j}` });
      kept.push(batch);
      if (kept.length > 100) kept.shift();
    }
    kept.length = 0;
    const before = newSpace().space_size;
    memoryReducingGc()();
    const after = newSpace().space_size;
    expect(after).toBeLessThan(before);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
