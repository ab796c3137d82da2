import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipitEvent } from '../../../src/events/event.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call, collectEvents, processGone, until } from './helpers.ts';

const OUTPUT = 'pipit.message.event.shell.ShellOutputEvent';
const EXIT = 'pipit.message.event.shell.ShellExitEvent';

// The lines of a command's output events, in order: each event carries a batch of them.
function streamedLines(events: PipitEvent[], id: unknown): string[] {
  return events
    .filter((e) => e.args.type === OUTPUT && e.args.id === id)
    .flatMap((e) => (e.args.lines as string[]).map((l) => `${String(e.args.stream)}:${l}`));
}

describe('shell.exec with stream and background', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await makeApp(`shell:
  kill_grace_seconds: 0.2
  max_output_bytes: 4096
event.hook.ShellDone:
  if: {type: ShellExitEvent, exit_code: 7}
  then:
    - action: variable.set
      args:
        shell_done: \${id}
`);
  });
  afterAll(() => t.close());

  it('returns at once, emits each line in order, then the exit; hooks see the exit', async () => {
    const seen = collectEvents(t);
    const res = await call(t, 'shell.exec', {
      cmd: 'for i in 1 2 3; do echo line $i; done; echo oops >&2; printf tail; exit 7',
      stream: true,
    });
    expect(res.errors).toEqual([]);
    const { id, pid } = res.output as { id: string; pid: number };
    expect(pid).toBeGreaterThan(0);
    const exit = await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    expect(exit.args).toMatchObject({
      exit_code: 7,
      signal: null,
      killed: null,
      truncated: false,
      pid,
    });
    const lines = streamedLines(seen.events, id);
    expect(lines.filter((l) => l.startsWith('stdout:'))).toEqual([
      'stdout:line 1',
      'stdout:line 2',
      'stdout:line 3',
      'stdout:tail',
    ]);
    expect(lines).toContain('stderr:oops');
    // Output events all come before the exit event.
    expect(seen.events.indexOf(exit)).toBeGreaterThan(
      Math.max(
        ...seen.events.filter((e) => e.args.type === OUTPUT).map((e) => seen.events.indexOf(e)),
      ),
    );
    await t.service.events.idle();
    expect(t.service.store.variables.get('shell_done')).toBe(id);
    seen.stop();
  });

  it('stops streaming at max_output_bytes and says so in the exit event', async () => {
    const seen = collectEvents(t);
    const res = await call(t, 'shell.exec', { cmd: 'seq 1 100000', stream: true });
    const { id } = res.output as { id: string };
    const exit = await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    expect(exit.args).toMatchObject({ exit_code: 0, truncated: true, dropped: 0 });
    const lines = streamedLines(seen.events, id).map((l) => l.slice('stdout:'.length));
    const streamed = lines.reduce((n, line) => n + line.length + 1, 0);
    expect(streamed).toBeLessThanOrEqual(4096 + 1);
    expect(streamed).toBeGreaterThan(4000);
    expect(lines[0]).toBe('1');
    seen.stop();
  });

  it('does not stream the line cut by max_output_bytes as if it were whole', async () => {
    const seen = collectEvents(t);
    // Lines of 11 bytes: 4096 is not a multiple, so the limit falls inside "line000372".
    const res = await call(t, 'shell.exec', {
      cmd: 'i=0; while [ $i -lt 1000 ]; do printf "line%06d\\n" $i; i=$((i+1)); done',
      stream: true,
    });
    const { id } = res.output as { id: string };
    await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    const lines = streamedLines(seen.events, id).map((l) => l.slice('stdout:'.length));
    expect(lines).toHaveLength(372);
    expect(lines.at(-1)).toBe('line000371');
    for (const line of lines) expect(line).toMatch(/^line\d{6}$/);
    seen.stop();
  });

  it('sends lines printed together in one event, "line" holding them joined', async () => {
    const seen = collectEvents(t);
    const res = await call(t, 'shell.exec', { cmd: 'printf "a\\nb\\nc\\n"', stream: true });
    const { id } = res.output as { id: string };
    await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    const events = seen.events.filter((e) => e.args.type === OUTPUT && e.args.id === id);
    expect(events.map((e) => e.args)).toMatchObject([
      { stream: 'stdout', lines: ['a', 'b', 'c'], line: 'a\nb\nc', dropped: 0 },
    ]);
    seen.stop();
  });

  it('runs in the background: the exit event carries stdout and stderr', async () => {
    const seen = collectEvents(t);
    const res = await call(t, 'shell.exec', {
      cmd: 'echo out; echo err >&2; exit 2',
      background: true,
    });
    const { id } = res.output as { id: string };
    const exit = await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    expect(exit.args).toMatchObject({ exit_code: 2, stdout: 'out\n', stderr: 'err', killed: null });
    expect(seen.events.some((e) => e.args.type === OUTPUT && e.args.id === id)).toBe(false);
    seen.stop();
  });

  it('lists background jobs, and shell.kill ends their process group', async () => {
    const seen = collectEvents(t);
    const pidFile = join(t.dir, 'job.pid');
    const res = await call(t, 'shell.exec', {
      cmd: `sleep 100 & echo $! > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; wait`,
      background: true,
    });
    const { id } = res.output as { id: string };
    expect(await until(() => existsSync(pidFile))).toBe(true);
    expect(((await call(t, 'shell.jobs')).output as { id: string }[]).map((j) => j.id)).toContain(
      id,
    );
    expect((await call(t, 'shell.kill', { id })).errors).toEqual([]);
    const exit = await seen.waitFor((e) => e.args.type === EXIT && e.args.id === id);
    expect(exit.args).toMatchObject({ killed: 'killed', exit_code: null, signal: 'SIGTERM' });
    expect(await until(() => processGone(Number(readFileSync(pidFile, 'utf8'))))).toBe(true);
    expect(seen.events.some((e) => e.args.type === OUTPUT && e.args.id === id)).toBe(false);
    expect(((await call(t, 'shell.jobs')).output as unknown[]).length).toBe(0);
    expect((await call(t, 'shell.kill', { id })).errors[0]).toMatch(/no running command with id/);
    seen.stop();
  });

  it('knows the kinds by short, full and Platypush-prefixed names', () => {
    const kinds = t.service.events.kinds;
    expect(kinds.resolve('ShellOutputEvent')).toBe(OUTPUT);
    expect(kinds.resolve('platypush.message.event.shell.ShellExitEvent')).toBe(EXIT);
    expect(kinds.resolve('MQTTMessageEvent')).toBe('pipit.message.event.mqtt.MQTTMessageEvent');
  });
});
