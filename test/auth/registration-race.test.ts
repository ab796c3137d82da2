// Registration creates at most one account, however many requests race, from
// however many processes (the CLI included).
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { createService } from '../../src/app/service.ts';
import type { Service } from '../../src/app/service.ts';
import { runCli } from '../helpers/process.ts';
import { makeApp } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

describe('registration race', () => {
  it('20 concurrent POST /register on a fresh instance create exactly one user', async () => {
    const t = await makeApp();
    open.push(t);
    const http = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${http}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `user${i}`, password: PASSWORD }),
        }).then((r) => r.status),
      ),
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(1);
    expect(answers.filter((s) => s === 403)).toHaveLength(19);
    expect(t.service.store.users.count()).toBe(1);
  });

  it('two processes sharing one database (two services) still create only one', async () => {
    const a = await makeApp();
    open.push(a);
    const config = loadConfig({ path: a.configPath, plugins: builtinPlugins });
    const b: Service = await createService(config, { log: createLogger({ level: 'silent' }) });
    open.push(b);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a.service : b).auth.register(`racer${i}`, PASSWORD),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect(r.reason).toMatchObject({ code: 'FORBIDDEN' });
    expect(a.service.store.users.count()).toBe(1);
  });

  it('the CLI adding a user while the web form registers: at most one registration lands', async () => {
    const t = await makeApp();
    open.push(t);
    const http = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cli = runCli(['--config', t.configPath, 'user', 'add', 'admin', '--password-stdin'], {
      input: `${PASSWORD}\n`,
    });
    let cliDone = false;
    void cli.then(() => (cliDone = true));
    const statuses: number[] = [];
    // Keep the form busy for as long as the CLI runs, so that the two really overlap.
    for (let round = 0; !cliDone && round < 200; round++) {
      const batch = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          fetch(`${http}/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: `web${round}-${i}`, password: PASSWORD }),
          }).then((r) => r.status),
        ),
      );
      statuses.push(...batch);
    }
    const { code, stderr } = await cli;
    expect(code, stderr).toBe(0);
    const registered = statuses.filter((s) => s === 201).length;
    expect(registered).toBeLessThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 403)).toBe(true);
    const names = t.service.store.users.list().map((u) => u.username);
    expect(names).toContain('admin');
    expect(names).toHaveLength(1 + registered);
  });
});
