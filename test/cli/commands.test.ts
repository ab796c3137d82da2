import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

describe('pipit CLI commands', () => {
  let dir: string;
  let cleanup: () => void;
  let config: string;
  const cli = (args: string[], input?: string) =>
    runCli(['--config', config, ...args], { input: input ?? '' });

  beforeAll(() => {
    ({ dir, cleanup } = tempDir());
    config = join(dir, 'config.yaml');
    writeFileSync(config, 'device_id: cli-host\nworkdir: ./data\n');
  });
  afterAll(() => cleanup());

  it('runs an action with key=value and key:=json arguments and prints the response', async () => {
    const res = await cli(['run', 'utils.echo', 'text=50', 'n:=50', '--args', '{"flag": true}']);
    expect(res.code).toBe(0);
    const msg = JSON.parse(res.stdout);
    expect(msg).toMatchObject({
      type: 'response',
      target: 'cli',
      origin: 'cli-host',
      response: { output: { text: '50', n: 50, flag: true }, errors: [] },
    });
  });

  it('exits non-zero when the response has errors, and on unusable arguments', async () => {
    const failed = await cli(['run', 'utils.sleep', 'seconds=later']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).response.errors[0]).toMatch(/"seconds"/);
    const bad = await cli(['run', 'utils.echo', 'not-an-argument']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/"not-an-argument" is not an argument: write key=value/);
    const badJson = await cli(['run', 'utils.echo', 'n:={']);
    expect(badJson.stderr).toMatch(/must be JSON/);
  });

  it('lists the catalog with parameters and defaults', async () => {
    const res = await cli(['actions', 'utils']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/utils\.sleep/);
    expect(res.stdout).toMatch(/seconds\s+how long to wait/);
    const json = JSON.parse((await cli(['actions', '--json'])).stdout) as { name: string }[];
    expect(json.map((p) => p.name)).toEqual([
      'automations',
      'event',
      'http',
      'inspect',
      'logger',
      'mqtt',
      'runs',
      'system',
      'utils',
      'variable',
    ]);
    expect((await cli(['actions', 'nope'])).code).toBe(1);
  });

  it('adds, lists, re-passwords and removes users; creates, lists and revokes tokens', async () => {
    const add = await cli(['user', 'add', 'ada', '--password-stdin'], 'correct horse battery\n');
    expect(add.code).toBe(0);
    expect(
      (await cli(['user', 'add', 'ada', '--password-stdin'], 'correct horse battery\n')).stderr,
    ).toMatch(/already exists/);
    expect((await cli(['user', 'add', 'bob', '--password-stdin'], 'short\n')).stderr).toMatch(
      /8 to 1024 characters/,
    );
    const users = JSON.parse((await cli(['user', 'list'])).stdout) as { username: string }[];
    expect(users.map((u) => u.username)).toEqual(['ada']);

    const token = JSON.parse(
      (await cli(['token', 'create', 'ada', '--name', 'cron box', '--expiry-days', '2'])).stdout,
    ) as { id: string; token: string; expires_at: number };
    expect(token.token.split('.')).toHaveLength(3);
    expect(token.expires_at - Date.now() / 1000).toBeGreaterThan(1.9 * 86400);
    const listed = JSON.parse((await cli(['token', 'list', 'ada'])).stdout) as {
      id: string;
      name: string;
    }[];
    expect(listed).toEqual([expect.objectContaining({ id: token.id, name: 'cron box' })]);
    expect(JSON.stringify(listed)).not.toContain(token.token);
    expect((await cli(['token', 'revoke', 'ada', token.id])).code).toBe(0);
    expect(JSON.parse((await cli(['token', 'list', 'ada'])).stdout)).toEqual([]);
    expect((await cli(['token', 'revoke', 'ada', token.id])).stderr).toMatch(/no token with id/);

    expect(
      (await cli(['user', 'passwd', 'ada', '--password-stdin'], 'another good password\n')).code,
    ).toBe(0);
    expect(JSON.parse((await cli(['user', 'remove', 'ada'])).stdout)).toEqual({
      username: 'ada',
      removed: true,
    });
    expect((await cli(['user', 'remove', 'ada'])).stderr).toMatch(/no user named "ada"/);
  }, 60_000);
});
