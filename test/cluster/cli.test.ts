// `pipit run --target` on a machine set up as docs/cluster.md says: the cluster's secret lives in the
// service's environment (a systemd drop-in), not in the shell, and the CLI does not need it to
// reach its own service over the control socket. Two real Pipit processes and a real redis-server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.ts';
import { execute, startCluster } from './harness.ts';
import type { TestCluster } from './harness.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startCluster(['alpha', 'beta']);
  await execute(cluster.members.beta!, { action: 'variable.set', args: { where: 'beta' } });
}, 60_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('pipit run --target', () => {
  it('routes through the running service without the secret in the shell', async () => {
    expect(process.env.PIPIT_CLUSTER_SECRET).toBeUndefined();
    const alpha = cluster.members.alpha!;
    const cli = await runCli([
      '--config',
      alpha.configPath,
      'run',
      '--target',
      'beta',
      'variable.get',
      'name=where',
    ]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      origin: 'beta',
      response: { output: { where: 'beta' }, errors: [] },
    });
  }, 30_000);

  it('with --local (a service in its own process) still names the unset variable', async () => {
    const alpha = cluster.members.alpha!;
    const cli = await runCli(['--config', alpha.configPath, 'run', 'utils.echo', '--local']);
    expect(cli.code).toBe(78);
    expect(cli.stderr).toMatch(/PIPIT_CLUSTER_SECRET is not set/);
  }, 30_000);
});
