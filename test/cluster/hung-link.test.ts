// A link to Redis that stops answering without closing (a Redis that hangs, a Wi-Fi link that
// drops): every command has a timeout, an unanswered heartbeat PING marks the link down (/readyz
// 503, one warning, waiting routed calls fail with 503), a routed call's time starts before the
// target lookup, and a request its caller gave up on never runs. Two real Pipit processes, a real
// redis-server, and a TCP proxy in front of it for one of them.
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  execute,
  instances,
  launchMember,
  logLines,
  waitForInstances,
  waitForReadyz,
} from './harness.ts';
import type { LoneMember } from './harness.ts';
import { startProxy } from './proxy.ts';
import type { PausableProxy } from './proxy.ts';
import { startRedis } from './redis-server.ts';
import type { RedisServer } from './redis-server.ts';

// harness: request_timeout_seconds 3, heartbeat_seconds 0.3.
const TIMEOUT_MS = 3_000;
const COMMAND_TIMEOUT = '  command_timeout_seconds: 0.5';

let redis: RedisServer;
let proxy: PausableProxy;
let alpha: LoneMember;
let beta: LoneMember;

beforeAll(async () => {
  redis = await startRedis();
  proxy = await startProxy(redis.port);
  [alpha, beta] = await Promise.all([
    launchMember('alpha', proxy.url, COMMAND_TIMEOUT),
    launchMember('beta', redis.url, COMMAND_TIMEOUT),
  ]);
  await Promise.all([alpha, beta].map((m) => waitForInstances(m, ['alpha', 'beta'])));
  await execute(beta, { action: 'variable.set', args: { light: 'off' } });
}, 60_000);

afterAll(async () => {
  proxy?.resume();
  await Promise.all([alpha?.cleanup(), beta?.cleanup()]);
  await proxy?.close();
  await redis?.stop();
});

// Milliseconds from now until `fn` resolves.
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

describe('a link to Redis that hangs', () => {
  it('marks the link down within a second or two, fails waiting calls with 503, bounds new calls, and never runs what the caller gave up on', async () => {
    // A call waiting for beta's answer when the link hangs.
    const waiting = timed(() =>
      execute(alpha, { action: 'utils.sleep', args: { seconds: 5 }, target: 'beta' }),
    );
    await vi.waitFor(async () => expect((await instances(alpha)).requests_in_flight).toBe(1), {
      timeout: 10_000,
      interval: 20,
    });

    const hungAt = performance.now();
    proxy.pause();
    // Sent at once, before the hang is noticed: one to a target not seen yet (its lookup in Redis
    // hangs), one that its client gives up on after a second.
    const unknown = timed(() => execute(alpha, { action: 'utils.echo', target: 'gamma' }));
    const gaveUp = fetch(`${alpha.url}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alpha.token}` },
      body: JSON.stringify({
        type: 'request',
        action: 'variable.set',
        args: { light: 'on' },
        target: 'beta',
      }),
      signal: AbortSignal.timeout(1_000),
    }).catch((err: unknown) => err);

    await waitForReadyz(alpha, 503, 10_000);
    const toReadyz = performance.now() - hungAt;
    console.log(`hung link to /readyz 503: ${Math.round(toReadyz)} ms`);
    expect(toReadyz).toBeLessThan(2_000);

    const [{ status, body }, waited] = await waiting;
    expect(status).toBe(503);
    // Failed by the PING's verdict, or by its own PUBLISH timing out first (on a busy machine).
    expect(body.response.errors[0]).toMatch(/did not answer (a PING )?within 0\.5 s/);
    expect(waited).toBeLessThan(5_000);

    const [lookup, lookupMs] = await unknown;
    // Redis unreachable (503), the lookup timed out (404), or the call's own time ran out (504):
    // in every case within the call's timeout, counted from its arrival.
    expect([503, 404, 504]).toContain(lookup.status);
    expect(lookupMs).toBeLessThan(TIMEOUT_MS + 500);
    // Given up by its client, or failed first by the hang: either way, never run (below).
    const given = await gaveUp;
    expect(given instanceof Error || (given as Response).status === 503).toBe(true);

    // The link comes back only after the request's deadline: a wait on the clock, which is what
    // is being tested.
    await delay(TIMEOUT_MS + 500 - (performance.now() - hungAt));
    proxy.resume();
    await waitForReadyz(alpha, 200, 15_000);
    await waitForInstances(alpha, ['alpha', 'beta']);

    const light = await execute(alpha, {
      action: 'variable.get',
      args: { name: 'light' },
      target: 'beta',
    });
    expect(light.status).toBe(200);
    expect(light.body.response.output).toEqual({ light: 'off' });
    const sets = await execute(beta, {
      action: 'runs.list',
      args: { transport: 'cluster', action: 'variable.set' },
    });
    expect(sets.body.response.output.runs).toEqual([]);

    expect(logLines(alpha, /lost the connection to Redis/)).toHaveLength(1);
    expect(logLines(alpha, /reconnected to Redis/).length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
