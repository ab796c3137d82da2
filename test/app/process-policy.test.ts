// The last-resort policy: an unhandled rejection is logged and the service goes
// on; an uncaught exception is logged, the service stops gracefully, and the process exits 70.
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_UNCAUGHT, installProcessPolicy } from '../../src/app/process-policy.ts';
import { captureLog } from '../helpers/service.ts';

const uninstall: Array<() => void> = [];
afterEach(() => {
  for (const u of uninstall.splice(0)) u();
});

describe('process policy', () => {
  it('logs an unhandled rejection with its reason and keeps running', async () => {
    const { log, lines } = captureLog('error');
    let stopped = false;
    uninstall.push(installProcessPolicy(log, async () => void (stopped = true)));
    process.emit('unhandledRejection', new Error('nobody caught me'), Promise.resolve());
    expect(lines[0]).toMatchObject({ level: 50, kind: 'unhandledRejection' });
    expect(JSON.stringify(lines[0])).toContain('nobody caught me');
    expect(stopped).toBe(false);
  });

  it('on an uncaught exception: logs fatal, stops gracefully, exits 70', async () => {
    const { log, lines } = captureLog('error');
    const order: string[] = [];
    const exited = new Promise<number>((resolve) => {
      uninstall.push(
        installProcessPolicy(
          log,
          async () => {
            order.push('stop');
          },
          { exit: (code) => (order.push('exit'), resolve(code)) },
        ),
      );
    });
    (process.emit as (event: string, ...args: unknown[]) => boolean)(
      'uncaughtException',
      new Error('thrown from a timer'),
      'uncaughtException',
    );
    expect(await exited).toBe(EXIT_UNCAUGHT);
    expect(order).toEqual(['stop', 'exit']);
    expect(lines[0]).toMatchObject({ level: 60 });
    expect(JSON.stringify(lines[0])).toContain('thrown from a timer');
  });
});
