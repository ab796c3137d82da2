// One failure is one log line at the default level: a failing cron or hook, however deep the
// failing step, writes one line with the error's message (the run history keeps the details), and
// the error object (stack, cause, details) only at debug.
import { afterEach, describe, expect, it } from 'vitest';
import { captureLog, makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const YAML = `procedure.inner:
  - action: variable.get
procedure.outer:
  - action: procedure.inner
cron.Fails:
  cron_expression: '0 3 * * *'
  actions:
    - action: procedure.outer
event.hook.Fails:
  if:
    type: CustomEvent
    subtype: fail
  then:
    - action: procedure.outer
`;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function appAt(level: string) {
  const captured = captureLog(level);
  t = await makeApp(YAML, { log: captured.log });
  const mentions = () =>
    captured.lines.filter((l) => JSON.stringify(l).includes('argument \\"name\\"'));
  return { t, mentions };
}

describe('a failing run at the default level', () => {
  it('a cron whose procedure fails two levels down writes one line, without the error object', async () => {
    const { t, mentions } = await appAt('info');
    expect(await t.service.scheduler.runNow('Fails')).toBe('failed');
    expect(mentions()).toHaveLength(1);
    expect(mentions()[0]).toMatchObject({ level: 40, cron: 'Fails' });
    expect(mentions()[0]!.msg).toMatch(/^cron job Fails failed: .*variable\.get: argument "name"/);
    expect(mentions()[0]).not.toHaveProperty('err');
  });

  it('a hook whose procedure fails writes one line', async () => {
    const { t, mentions } = await appAt('info');
    await t.service.execute(
      { type: 'request', action: 'event.fire', args: { subtype: 'fail' } },
      { transport: 'cli' },
    );
    await t.service.events.idle();
    expect(mentions()).toHaveLength(1);
    expect(mentions()[0]!.msg).toMatch(/^hook Fails failed: /);
  });

  it('a procedure called by a client writes one line for the call, not one per level', async () => {
    const { t, mentions } = await appAt('info');
    const { message } = await t.service.execute(
      { type: 'request', action: 'procedure.outer' },
      { transport: 'cli' },
    );
    expect(message.response.errors).not.toEqual([]);
    expect(mentions()).toHaveLength(1);
    expect(mentions()[0]).toMatchObject({ action: 'procedure.outer', code: 'ACTION_FAILED' });
  });

  it('at debug, the lines carry the error object', async () => {
    const { t, mentions } = await appAt('debug');
    await t.service.scheduler.runNow('Fails');
    expect(mentions().find((l) => l.cron === 'Fails')).toHaveProperty('err');
  });
});
