import { describe, expect, it } from 'vitest';
import { LineBatcher } from '../../../src/plugins/shell/line-batcher.ts';
import type { BatchLimits, LineBatch } from '../../../src/plugins/shell/line-batcher.ts';

function recorder(limits: Partial<BatchLimits> = {}, sendMs = 0) {
  const batches: Array<LineBatch & { at: number }> = [];
  let inFlight = 0;
  let overlapped = false;
  const batcher = new LineBatcher(
    { batchesPerSecond: 10, linesPerBatch: 1000, charsPerBatch: 1 << 20, ...limits },
    async (batch) => {
      if (inFlight++) overlapped = true;
      batches.push({ ...batch, at: Date.now() });
      if (sendMs) await new Promise((resolve) => setTimeout(resolve, sendMs));
      inFlight--;
    },
  );
  return { batcher, batches, overlapped: () => overlapped };
}

describe('LineBatcher', () => {
  it('sends lines printed together as one batch, per stream, in order', async () => {
    const { batcher, batches } = recorder();
    for (const line of ['a', 'b', 'c']) batcher.push('stdout', line);
    batcher.push('stderr', 'oops');
    await batcher.end();
    expect(batches.map(({ stream, lines, dropped }) => ({ stream, lines, dropped }))).toEqual([
      { stream: 'stdout', lines: ['a', 'b', 'c'], dropped: 0 },
      { stream: 'stderr', lines: ['oops'], dropped: 0 },
    ]);
  });

  it('drops and counts the lines past a full batch, by lines or by characters', async () => {
    const byLines = recorder({ linesPerBatch: 2 });
    for (const line of ['1', '2', '3', '4', '5']) byLines.batcher.push('stdout', line);
    await byLines.batcher.end();
    expect(byLines.batches).toMatchObject([{ lines: ['1', '2'], dropped: 3 }]);
    expect(byLines.batcher.dropped).toBe(3);
    const byChars = recorder({ charsPerBatch: 10 });
    // A first line is taken whole, however long.
    for (const line of ['x'.repeat(20), 'y']) byChars.batcher.push('stdout', line);
    await byChars.batcher.end();
    expect(byChars.batches).toMatchObject([{ lines: ['x'.repeat(20)], dropped: 1 }]);
  });

  it('sends at most batchesPerSecond, one batch at a time, losing nothing under the cap', async () => {
    const { batcher, batches, overlapped } = recorder({ batchesPerSecond: 10 }, 30);
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 600) {
      batcher.push('stdout', String(n++));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await batcher.end();
    const elapsed = (Date.now() - started) / 1000;
    expect(batches.length).toBeLessThanOrEqual(Math.ceil(10 * elapsed) + 2);
    expect(batches.length).toBeGreaterThan(2);
    for (let i = 1; i < batches.length - 1; i++)
      expect(batches[i]!.at - batches[i - 1]!.at).toBeGreaterThanOrEqual(95);
    expect(batches.flatMap((b) => b.lines)).toEqual(Array.from({ length: n }, (_, i) => String(i)));
    expect(overlapped()).toBe(false);
  });
});
