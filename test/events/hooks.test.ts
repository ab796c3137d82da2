import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, tempDir } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const YAML = `
scripts_dir: ./scripts
event.hook.DoorOpen:
  if:
    type: CustomEvent
    subtype: door_open
  then:
    - action: variable.set
      args:
        door: \${args.door}
event.hook.Loud:
  if:
    type: svc.message.event.custom.CustomEvent
    subtype: noise
    args:
      level: {$gte: 70}
  then:
    - action: variable.set
      args:
        loud: \${args.level}
event.hook.Failing:
  if: {type: CustomEvent, subtype: door_open}
  then:
    - action: utils.sleep
      args: {seconds: never}
event.hook.Note:
  if: {type: CustomEvent, subtype: note}
  then:
    - action: variable.set
      args: {note: '\${args.text}'}
`;

const SCRIPT = `import { hook, run } from 'pipit';
hook('CustomEvent', { subtype: 'door_open' }, async (event) => {
  await run('variable.set', { script_saw: event.args.door, kind: event.type });
});
`;

describe('event hooks', () => {
  let t: TestApp;
  let cleanup: () => void;
  const fire = async (subtype: string, args: Record<string, unknown>) => {
    const res = await t.service.execute(
      { type: 'request', action: 'event.fire', args: { subtype, args } },
      { transport: 'test' },
    );
    expect(res.message.response.errors).toEqual([]);
    await t.service.events.idle();
  };
  const variable = (name: string) => t.service.store.variables.get(name);

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    mkdirSync(join(tmp.dir, 'scripts'));
    writeFileSync(join(tmp.dir, 'scripts', 'door.mjs'), SCRIPT);
    t = await makeApp(YAML, { dir: tmp.dir });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });

  it('runs every matching hook, YAML and script, and a failing one does not stop the others', async () => {
    await fire('door_open', { door: 'front' });
    expect(variable('door')).toBe('front');
    expect(variable('script_saw')).toBe('front');
    expect(variable('kind')).toBe('pipit.message.event.custom.CustomEvent');
  });

  it('does not run hooks whose condition does not match', async () => {
    await fire('noise', { level: 40 });
    expect(variable('loud')).toBeUndefined();
    await fire('noise', { level: 85 });
    expect(variable('loud')).toBe(85);
  });

  it('keeps event data as data: ${...} inside an event is never evaluated', async () => {
    await fire('note', { text: '${constructor.constructor("return process")().exit()}' });
    expect(variable('note')).toBe('${constructor.constructor("return process")().exit()}');
  });

  it('refuses an unknown event kind with the known ones listed', async () => {
    const res = await t.service.execute(
      { type: 'request', action: 'event.fire', args: { kind: 'DoorEvent', subtype: 'x' } },
      { transport: 'test' },
    );
    expect(res.message.response.errors[0]).toMatch(/unknown event kind "DoorEvent".*CustomEvent/);
  });
});

describe('hook configuration errors', () => {
  it.each([
    ['event.hook.A:\n  then: []\n', /"if" must be a mapping/],
    ['event.hook.B:\n  if: {type: CustomEvent, level: {$gt: [1]}}\n  then: []\n', /event\.hook\.B/],
    ['event.hook.C:\n  if: {type: CustomEvent}\n  then:\n    - acton: x\n', /event\.hook\.C then/],
    ['event.hook.D:\n  if: {type: CustomEvent}\n  then: []\n  else: []\n', /unknown key "else"/],
  ])('refuses %j at start', async (yaml, pattern) => {
    const { dir, cleanup } = tempDir();
    try {
      await expect(makeApp(yaml, { dir })).rejects.toThrow(pattern);
    } finally {
      cleanup();
    }
  });
});

describe('script hooks', () => {
  it('reports a script hooking an unknown event kind, with its file, and keeps the others', async () => {
    const { dir, cleanup } = tempDir();
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(
      join(dir, 'scripts', 'a-bad.mjs'),
      "import { hook } from 'pipit';\nhook('DoorEvent', {}, () => 1);\n",
    );
    writeFileSync(
      join(dir, 'scripts', 'b-good.mjs'),
      "import { procedure } from 'pipit';\nprocedure('fine', () => 'ok');\n",
    );
    const t = await makeApp('scripts_dir: ./scripts\n', { dir });
    try {
      expect(t.service.scripts.failed).toEqual([
        {
          file: join(dir, 'scripts', 'a-bad.mjs'),
          error: expect.stringMatching(/unknown event kind "DoorEvent"/),
        },
      ]);
      expect(await t.service.services.run('procedure.fine')).toBe('ok');
    } finally {
      await t.close();
      cleanup();
    }
  });
});
