// `pipit start` always exits after SIGTERM: work still running after the grace period is answered
// with an error and its socket closed, and a graceful close that hangs is cut off at the hard
// deadline (grace + SHUTDOWN_MARGIN_MS) with a log line.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_MARGIN_MS } from '../../src/app/process-policy.ts';
import { closeAll, connect } from '../http/ws-client.ts';
import { startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
let proc: PipitProcess | undefined;
let cleanup: (() => void) | undefined;

afterEach(async () => {
  await closeAll();
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
    proc.child.kill('SIGKILL');
    await once(proc.child, 'exit');
  }
  proc = undefined;
  cleanup?.();
});

async function start(graceSeconds: number, yaml = ''): Promise<PipitProcess> {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const configPath = join(tmp.dir, 'config.yaml');
  writeFileSync(
    configPath,
    `device_id: stopper\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n  shutdown_grace_seconds: ${graceSeconds}\n${yaml}`,
  );
  proc = await startPipitProcess(configPath);
  return proc;
}

async function tokenOf(url: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post('/register', { username: 'ada', password: PASSWORD })).status).toBe(201);
  const res = await post('/auth', { username: 'ada', password: PASSWORD });
  return ((await res.json()) as { token: string }).token;
}

/** Sends SIGTERM; resolves with the exit code and the seconds it took. */
async function terminate(p: PipitProcess): Promise<{ code: number | null; seconds: number }> {
  const started = Date.now();
  const exited = once(p.child, 'exit') as Promise<[number | null]>;
  p.child.kill('SIGTERM');
  const [code] = await exited;
  return { code, seconds: (Date.now() - started) / 1000 };
}

describe('pipit start on SIGTERM', () => {
  it('answers a /ws/requests call that outlives a grace period longer than 10 s with an error, closes the socket, and exits 0', async () => {
    // Over 10 s: fastify's default plugin timeout, which cut the close short and left the process up.
    const grace = 10.2;
    const p = await start(grace);
    const token = await tokenOf(p.url);
    const c = await connect(`${p.url.replace(/^http/, 'ws')}/ws/requests`, {
      headers: { authorization: `Bearer ${token}` },
    });
    c.send({ type: 'requests', action: 'utils.sleep', args: { seconds: 60 }, id: 'long' });
    c.send({ type: 'requests', action: 'utils.echo', id: 'probe' });
    await c.next((f) => f.id === 'probe');

    const stopped = terminate(p);
    const long = await c.next((f) => f.id === 'long');
    expect(long.response.errors[0]).toMatch(/shut down before this request finished/);
    expect((await c.closed).code).toBe(1001);
    const { code, seconds } = await stopped;
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(grace + SHUTDOWN_MARGIN_MS / 1000);
    expect(p.logs.join('\n')).toContain('Pipit stopped');
  }, 40_000);

  it('exits at the hard deadline, with a line saying so, when the graceful close hangs', async () => {
    // A hook that never ends: the service's close waits for the hooks in flight.
    const grace = 0.5;
    const p = await start(
      grace,
      'event.hook.Linger:\n  if: {type: ApplicationStoppedEvent}\n  then:\n    - action: utils.sleep\n      args: {seconds: 3600}\n',
    );
    const { code, seconds } = await terminate(p);
    expect(code).toBe(1);
    expect(seconds).toBeGreaterThanOrEqual(grace + SHUTDOWN_MARGIN_MS / 1000 - 0.1);
    expect(seconds).toBeLessThan(grace + SHUTDOWN_MARGIN_MS / 1000 + 3);
    expect(p.logs.join('\n')).toMatch(/the shutdown had not finished after 5\.5 s/);
  }, 30_000);
});
