import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import { PipitError } from '../../src/core/errors.ts';
import { Scheduler } from '../../src/cron/scheduler.ts';
import type { CronRunResult } from '../../src/cron/scheduler.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { startPipit } from '../../src/app/runtime.ts';
import { tempDir } from '../helpers/service.ts';

const log = createLogger({ level: 'silent' });

describe('Scheduler', () => {
  it('skips a run while the previous one is still going, and keeps going after a failure', async () => {
    const scheduler = new Scheduler(log);
    let release!: () => void;
    let calls = 0;
    scheduler.add({
      name: 'slow',
      expression: '0 0 1 1 *',
      source: 'test',
      run: () => {
        calls++;
        if (calls === 2) return Promise.reject(new Error('the second run that starts fails'));
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = scheduler.runNow('slow');
    expect(await scheduler.runNow('slow')).toBe('skipped');
    release();
    expect(await first).toBe('ran');
    expect(await scheduler.runNow('slow')).toBe('failed');
    expect(calls).toBe(2);
    scheduler.stop();
  });

  it('still skips a job that was running before a reload replaced every job', async () => {
    const scheduler = new Scheduler(log);
    let release!: () => void;
    let calls = 0;
    const def = {
      name: 'slow',
      expression: '0 0 1 1 *',
      source: 'test',
      run: () => {
        calls++;
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    scheduler.add(def);
    const first = scheduler.runNow('slow');
    scheduler.replaceAll([def]);
    expect(await scheduler.runNow('slow')).toBe('skipped');
    release();
    expect(await first).toBe('ran');
    const third = scheduler.runNow('slow');
    release();
    expect(await third).toBe('ran');
    expect(calls).toBe(2);
    scheduler.stop();
  });

  it.each([
    ['not a cron', undefined, /invalid cron_expression "not a cron"/],
    ['0 0 30 2 *', undefined, /"0 0 30 2 \*": it matches no date, so the job would never run/],
    ['0 0 31 4 *', undefined, /"0 0 31 4 \*": it matches no date/],
    ['0 23 * * *', 'Mars/Olympus', /timezone "Mars\/Olympus"/],
  ])('refuses %j (tz %s) with CONFIG_INVALID', (expression, timezone, pattern) => {
    const scheduler = new Scheduler(log);
    let error: unknown;
    try {
      scheduler.add({
        name: 'x',
        expression,
        timezone,
        source: 'config.yaml',
        run: async () => undefined,
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PipitError);
    expect((error as PipitError).code).toBe('CONFIG_INVALID');
    expect((error as PipitError).message).toMatch(pattern);
    expect((error as PipitError).message).toContain('config.yaml');
  });

  it('lists jobs with their next run in the configured time zone', () => {
    const scheduler = new Scheduler(log);
    scheduler.add({
      name: 'n',
      expression: '0 23 * * *',
      timezone: 'Asia/Tokyo',
      source: 't',
      run: async () => undefined,
    });
    const [job] = scheduler.list();
    expect(job!.timezone).toBe('Asia/Tokyo');
    expect(new Date(job!.next!).getUTCHours()).toBe(14);
  });
});

describe('cron in a started instance', () => {
  it('fires YAML and script crons on schedule, and the started event reaches hooks', async () => {
    const { dir, cleanup } = tempDir();
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(
      join(dir, 'scripts', 'tick.mjs'),
      "import { cron, run } from 'pipit';\ncron('* * * * * *', () => run('variable.set', { script_tick: true }), { name: 'ScriptTick' });\n",
    );
    writeFileSync(
      join(dir, 'config.yaml'),
      `workdir: ./data\nscripts_dir: ./scripts\ncron.EverySecond:\n  cron_expression: '* * * * * *'\n  actions:\n    - action: variable.set\n      args: {yaml_tick: true}\nevent.hook.Started:\n  if: {type: ApplicationStartedEvent}\n  then:\n    - action: variable.set\n      args: {started: true}\n`,
    );
    const config = loadConfig({ path: join(dir, 'config.yaml'), plugins: builtinPlugins });
    const running = await startPipit(config, { log });
    try {
      const ran = new Set<string>();
      await new Promise<void>((resolve) => {
        running.service.scheduler.onRun((name: string, result: CronRunResult) => {
          if (result === 'ran') ran.add(name);
          if (ran.has('EverySecond') && ran.has('ScriptTick')) resolve();
        });
      });
      await running.service.events.idle();
      expect(running.service.store.variables.get('yaml_tick')).toBe(true);
      expect(running.service.store.variables.get('script_tick')).toBe(true);
      expect(running.service.store.variables.get('started')).toBe(true);
    } finally {
      await running.stop();
      cleanup();
    }
  });
});

describe('cron configuration errors', () => {
  it.each([
    ['cron.A:\n  actions: []\n', /cron\.A: "cron_expression" must be a cron string/],
    ["cron.B:\n  cron_expression: '0 23 * * *'\n  action: []\n", /cron\.B: unknown key "action"/],
    [
      "cron.C:\n  cron_expression: '0 23 * * *'\n  timezone: 5\n  actions: []\n",
      /"timezone" must be an IANA name/,
    ],
    ["cron.D:\n  cron_expression: '0 23 * * *'\n  actions:\n    - acton: x\n", /cron\.D actions/],
    [
      "cron.E:\n  cron_expression: 'every day'\n  actions: []\n",
      /invalid cron_expression "every day"/,
    ],
  ])('refuses %j at start, naming the file', (yaml, pattern) => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, 'config.yaml'), `workdir: ./data\n${yaml}`);
      const config = loadConfig({ path: join(dir, 'config.yaml'), plugins: builtinPlugins });
      return expect(startPipit(config, { log })).rejects.toThrow(pattern);
    } finally {
      cleanup();
    }
  });
});
