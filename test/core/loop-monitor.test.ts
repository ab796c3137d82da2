// A script that busy-loops is named in a warning, and the event-loop monitor
// reports blocked stretches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchEventLoop } from '../../src/core/loop-monitor.ts';
import { makeEvent } from '../../src/events/event.ts';
import { CoreKinds } from '../../src/events/kinds.ts';
import { captureLog } from '../helpers/service.ts';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';

const SCRIPT = `import { hook } from 'pipit';
hook('CustomEvent', { subtype: 'spin' }, () => { const end = Date.now() + 1100; while (Date.now() < end); return 'done'; });
`;

const { log, lines } = captureLog('warn');
let s: Listening;
beforeAll(async () => {
  s = await listening({ scripts: { 'spin.mjs': SCRIPT }, log });
});
afterAll(() => s.close());

describe('busy-looping scripts', () => {
  it('names the hook that held the event loop', async () => {
    const outcomes = await s.t.service.events.hooks.dispatch(
      makeEvent(CoreKinds.CustomEvent, { subtype: 'spin' }, 'test'),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    const warning = lines.find((l) => String(l.msg).includes('blocked the event loop'));
    expect(warning).toMatchObject({ hook: expect.stringContaining('spin') as unknown });
    expect(Number(warning?.blocked_ms)).toBeGreaterThanOrEqual(1000);
  });

  it('the event-loop monitor warns after a blocked stretch', async () => {
    const own = captureLog('warn');
    const stop = watchEventLoop(own.log, { periodMs: 20, warnMs: 100 });
    const end = Date.now() + 200;
    while (Date.now() < end);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (own.lines.length) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    stop();
    expect(own.lines[0]).toMatchObject({ level: 40 });
    expect(Number(own.lines[0]!.blocked_ms)).toBeGreaterThanOrEqual(100);
    expect(String(own.lines[0]!.msg)).toMatch(/event loop was blocked/);
  });
});
