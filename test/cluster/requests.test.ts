// Requests routed by `target` from every transport (HTTP, /ws/requests, the CLI, run() in
// a script, a procedure step), unknown targets, and an instance killed mid-request. Three Pipit
// processes and a real redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.ts';
import { custom, record } from './frames.ts';
import type { Received } from './frames.ts';
import { SECRET, events, execute, requests, startCluster, waitForInstances } from './harness.ts';
import type { Member, TestCluster } from './harness.ts';

const NAMES = ['alpha', 'beta', 'gamma'];

// A step for another instance (`target:`), and a slow procedure that says when it has started.
const EXTRA = `
procedure.ask_beta:
  - action: variable.get
    target: beta
    args: {name: where}
procedure.slow:
  - action: event.fire
    args: {subtype: slow-started}
  - action: utils.sleep
    args: {seconds: 30}
`;

// run() with a target, from a script of the running instance.
const SCRIPT = `import { procedure, run } from 'pipit';
procedure('where_is', ['target'], async ({ target }) =>
  run('variable.get', { name: 'where' }, { target: String(target) }),
);
`;

let cluster: TestCluster;
let alpha: Member;
let beta: Member;
let gamma: Member;
let onAlpha: Received;

beforeAll(async () => {
  cluster = await startCluster(NAMES, {
    extra: () => EXTRA,
    scripts: () => ({ 'route.mjs': SCRIPT }),
  });
  [alpha, beta, gamma] = NAMES.map((n) => cluster.members[n]!) as [Member, Member, Member];
  // Each instance knows where it is: a variable in its own database.
  for (const m of [alpha, beta, gamma])
    await execute(m, { action: 'variable.set', args: { where: m.name } });
  onAlpha = record(await events(alpha));
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('requests routed by target', () => {
  it('runs an /execute request on the target instance, as the caller, with its answer and status', async () => {
    const { status, body } = await execute(alpha, {
      action: 'variable.get',
      args: { name: 'where' },
      target: 'beta',
      id: 'q1',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 'q1',
      type: 'response',
      target: 'http',
      origin: 'beta',
      response: { output: { where: 'beta' }, errors: [] },
    });

    // Beta recorded it as run for ada, through her token on alpha.
    const runs = await execute(beta, {
      action: 'runs.list',
      args: { transport: 'cluster', action: 'variable.get' },
    });
    expect(runs.body.response.output.runs[0].caller).toMatchObject({
      user: 'ada',
      via: 'token@alpha',
    });

    // Failures keep their status: unknown action, bad arguments, an action that failed.
    const missing = await execute(alpha, { action: 'nope.nothing', target: 'beta' });
    expect(missing.status).toBe(404);
    expect(missing.body.origin).toBe('beta');
    const invalid = await execute(alpha, {
      action: 'utils.sleep',
      args: { seconds: 'soon' },
      target: 'beta',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.response.errors.join(' ')).toMatch(/seconds/);
  });

  it('answers 404 naming the known instances for a target nobody is', async () => {
    const { status, body } = await execute(alpha, { action: 'utils.echo', target: 'delta' });
    expect(status).toBe(404);
    expect(body.response.errors[0]).toBe(
      'no instance named "delta" in the cluster; known instances: alpha (this one), beta, gamma',
    );
  });

  it('routes /ws/requests, the CLI, run() in a script and a procedure step', async () => {
    const ws = await requests(alpha);
    ws.send({
      type: 'requests',
      action: 'variable.get',
      args: { name: 'where' },
      target: 'gamma',
      id: 'w1',
    });
    expect(await ws.next((f) => f.id === 'w1')).toMatchObject({
      target: 'ws',
      origin: 'gamma',
      response: { output: { where: 'gamma' }, errors: [] },
    });

    const cli = await runCli(
      ['--config', alpha.configPath, 'run', '--target', 'beta', 'variable.get', 'name=where'],
      { env: { PIPIT_CLUSTER_SECRET: SECRET } },
    );
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      origin: 'beta',
      target: 'cli',
      response: { output: { where: 'beta' } },
    });

    const script = await execute(alpha, {
      action: 'procedure.where_is',
      args: { target: 'gamma' },
    });
    expect(script.body.response).toEqual({ output: { where: 'gamma' }, errors: [] });

    const step = await execute(alpha, { action: 'procedure.ask_beta' });
    expect(step.body.response).toEqual({ output: { where: 'beta' }, errors: [] });
  });

  it('gives the caller an error within the timeout when the target is killed mid-request', async () => {
    const started = performance.now();
    const pending = execute(alpha, { action: 'procedure.slow', target: 'gamma' });
    await onAlpha.await((f) => custom('slow-started')(f) && f.origin === 'gamma');
    await cluster.kill('gamma');
    // A new request fails at once: gamma still has a fresh heartbeat, but nobody listens for it.
    const before = performance.now();
    const fast = await execute(alpha, { action: 'utils.echo', target: 'gamma' });
    expect(fast.status).toBe(503);
    expect(fast.body.response.errors[0]).toMatch(/instance "gamma" is not listening/);
    expect(performance.now() - before).toBeLessThan(1_000);
    // The one in flight gets its answer: a timeout.
    const { status, body } = await pending;
    const waited = performance.now() - started;
    expect(status).toBe(504);
    expect(body.response.errors[0]).toMatch(/instance "gamma" did not answer within 3 s/);
    expect(waited).toBeLessThan(3_000 + 1_500);

    // Its heartbeat expires: it is no longer a known instance.
    await waitForInstances(alpha, ['alpha', 'beta']);
    const gone = await execute(alpha, { action: 'utils.echo', target: 'gamma' });
    expect(gone.status).toBe(404);
    expect(gone.body.response.errors[0]).toMatch(/known instances: alpha \(this one\), beta$/);
  }, 30_000);
});
