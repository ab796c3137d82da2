import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call, collectEvents } from './helpers.ts';

const OUTPUT = 'pipit.message.event.shell.ShellOutputEvent';
const EXIT = 'pipit.message.event.shell.ShellExitEvent';
const RATE = 5;

// `yes` streamed line by line made hundreds of thousands of events a second, each through every
// hook and subscriber: seconds of latency for every other request, and memory.
describe('shell.exec with stream: true, for a command that prints fast', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await makeApp(
      `shell:\n  stream_events_per_second: ${RATE}\n  stream_lines_per_event: 100\n`,
    );
  });
  afterAll(() => t.close());

  it('sends a bounded number of events, counts the lines it drops, and stays responsive', async () => {
    const seen = collectEvents(t);
    const res = await call(t, 'shell.exec', { cmd: 'yes', stream: true, timeout: 2.5 });
    const { id } = res.output as { id: string };
    await seen.waitFor((e) => e.args.type === OUTPUT && e.args.id === id);
    // Other requests are answered while it streams: probed through most of its run.
    let slowest = 0;
    for (let probe = 0; probe < 5; probe++) {
      const asked = Date.now();
      const echo = await call(t, 'utils.echo', { text: 'still here' });
      slowest = Math.max(slowest, Date.now() - asked);
      expect(echo.errors).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen.events.some((e) => e.args.type === EXIT && e.args.id === id)).toBe(false);
    expect(slowest).toBeLessThan(750);
    const exit = await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    const outputs = seen.events.filter((e) => e.args.type === OUTPUT && e.args.id === id);
    // One event at once, then at most RATE a second, and the last one at the end.
    const duration = exit.args.duration as number;
    expect(outputs.length).toBeLessThanOrEqual(Math.ceil(RATE * duration) + 2);
    expect(exit.args).toMatchObject({ killed: 'timeout', truncated: true });
    for (const e of outputs) {
      expect((e.args.lines as string[]).length).toBeLessThanOrEqual(100);
      expect(e.args.stream).toBe('stdout');
    }
    // Every line up to max_output_bytes (1 MiB of "y\n") is either sent or counted.
    const sent = outputs.reduce((n, e) => n + (e.args.lines as string[]).length, 0);
    const dropped = outputs.reduce((n, e) => n + (e.args.dropped as number), 0);
    expect(exit.args.dropped).toBe(dropped);
    expect(sent + dropped).toBe((1024 * 1024) / 2);
    expect(dropped).toBeGreaterThan(0);
    seen.stop();
  });
});
