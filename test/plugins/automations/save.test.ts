// automations.save and automations.delete: written beside the config or in place (comments kept),
// checked as at start with errors at their lines, applied without a restart, versions guarded.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GetOutput, SaveOutput } from '../../../src/plugins/automations/wire.ts';
import { loadConfig } from '../../../src/config/load.ts';
import { builtinPlugins } from '../../../src/plugins/index.ts';
import { automationsApp, callAs, ok } from './app.ts';
import { makeApp, registerAndToken } from '../../helpers/service.ts';

const CONFIG = `# lights, kept by hand
procedure.lights(level=3):   # the trailing comment
  # a comment inside
  - action: utils.echo
    args: {level: '\${level}'}

# the end of the file
cron.Nightly:
  cron_expression: '0 23 * * *'
  actions: [{action: utils.echo}]
`;

let t: Awaited<ReturnType<typeof automationsApp>>;
beforeEach(async () => {
  t = await automationsApp(CONFIG, {
    scripts: { 's.mjs': "import { procedure } from 'pipit';\nprocedure('fromScript', () => 1);\n" },
  });
});
afterEach(() => t.close());

const dir = () => join(t.configPath, '..');

describe('automations.save of a new automation', () => {
  it('writes it to automations.yaml beside the config and runs it at once, no restart', async () => {
    const yaml = '# says hi\nprocedure.hello(name):\n  - return: hi ${name}\n';
    const saved = await ok<SaveOutput>(t, 'automations.save', { yaml });
    expect(saved).toMatchObject({
      name: 'procedure.hello',
      created: true,
      file: join(dir(), 'automations.yaml'),
    });
    expect(t.file('automations.yaml')).toBe(yaml);
    expect((await callAs(t, 'procedure.hello', { name: 'ada' })).output).toBe('hi ada');
    // the version given back is the one automations.get shows
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.hello' });
    expect(got.version).toBe(saved.version);
    expect(got.source).toEqual({ type: 'yaml', file: saved.file, line: 2 });
    // a second one is appended after a blank line
    await ok(t, 'automations.save', { yaml: 'procedure.bye:\n  - return: bye\n' });
    expect(t.file('automations.yaml')).toBe(`${yaml}\nprocedure.bye:\n  - return: bye\n`);
    expect((await callAs(t, 'procedure.bye')).output).toBe('bye');
  });

  it('saves a call of a plugin Pipit does not have, with a warning (as at start)', async () => {
    const saved = await ok<SaveOutput>(t, 'automations.save', {
      yaml: 'procedure.kodi:\n  - action: media.kodi.pause\n',
    });
    expect(saved.warnings).toHaveLength(1);
    expect(saved.warnings[0]).toMatch(
      /plugin "media\.kodi" is not installed: procedure\.kodi step 1/,
    );
    const plain = await ok<SaveOutput>(t, 'automations.save', {
      yaml: 'procedure.plain:\n  - return: 1\n',
    });
    expect(plain.warnings).toEqual([]);
  });

  it('refuses a name that exists (CONFLICT), and a script automation (FORBIDDEN)', async () => {
    const dup = await callAs(t, 'automations.save', {
      yaml: 'cron.Nightly:\n  cron_expression: "0 1 * * *"\n  actions: [{action: utils.echo}]\n',
    });
    expect(dup.code).toBe('CONFLICT');
    expect(dup.message).toContain('already exists');
    const script = await callAs(t, 'automations.save', {
      yaml: 'procedure.fromScript:\n  - return: 2\n',
      version: 'x',
    });
    expect(script.reason).toBe('FORBIDDEN');
    expect(script.message).toContain('s.mjs');
    expect(existsSync(join(dir(), 'automations.yaml'))).toBe(false);
  });
});

describe('automations.save of an existing automation', () => {
  it('changes it in place: every other byte of the file, comments included, stays', async () => {
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.lights' });
    expect(got.yaml).toBe(CONFIG.slice(0, CONFIG.indexOf('\n\n# the end')) + '\n');
    const yaml = got.yaml.replace('utils.echo', 'logger.info').replace('{level:', '{msg:');
    const saved = await ok<SaveOutput>(t, 'automations.save', { yaml, version: got.version });
    expect(saved).toMatchObject({ name: 'procedure.lights', created: false, file: t.configPath });
    const text = readFileSync(t.configPath, 'utf8');
    const head = text.slice(0, text.indexOf('# lights'));
    expect(text).toBe(
      `${head}${CONFIG.replace('utils.echo', 'logger.info').replace('{level:', '{msg:')}`,
    );
    expect(text).toContain(
      "procedure.lights(level=3):   # the trailing comment\n  # a comment inside\n  - action: logger.info\n    args: {msg: '${level}'}\n\n# the end of the file\ncron.Nightly:",
    );
    // running at once: the procedure now logs instead of echoing its arguments
    expect((await callAs(t, 'procedure.lights')).output).toEqual({ success: true });
  });

  it('answers CONFLICT "changed since you opened it" for a stale version', async () => {
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'cron.Nightly' });
    await ok(t, 'automations.save', {
      yaml: got.yaml.replace('23', '22'),
      version: got.version,
    });
    const before = readFileSync(t.configPath, 'utf8');
    const stale = await callAs(t, 'automations.save', {
      yaml: got.yaml.replace('23', '21'),
      version: got.version,
    });
    expect(stale.code).toBe('CONFLICT');
    expect(stale.message).toContain('changed since you opened it');
    expect(readFileSync(t.configPath, 'utf8')).toBe(before);
    const del = await callAs(t, 'automations.delete', {
      name: 'cron.Nightly',
      version: got.version,
    });
    expect(del.code).toBe('CONFLICT');
  });
});

describe('automations.save validation', () => {
  const cases: [string, string, RegExp][] = [
    [
      'an unknown action, with a suggestion',
      'procedure.p:\n  - action: utils.echo\n  - action: utils.ecko\n',
      /^line 3: procedure\.p step 2: .*"ecko"\. Did you mean "echo"/,
    ],
    [
      'an argument of the wrong type',
      'procedure.p:\n  - action: utils.sleep\n    args:\n      seconds: soon\n',
      /^line 4: procedure\.p step 1: utils\.sleep: "seconds" .*number/,
    ],
    [
      'a bad cron expression',
      'cron.C:\n  actions: [{action: utils.echo}]\n  cron_expression: "61 * * * *"\n',
      /^line 3: .*invalid cron_expression "61 \* \* \* \*"/,
    ],
    [
      'an unknown event kind',
      'event.hook.H:\n  then: [{action: utils.echo}]\n  if:\n    type: CustomEvnt\n',
      /^line 4: .*unknown event kind "CustomEvnt".*CustomEvent/,
    ],
    [
      'a bad ${} expression',
      'procedure.p:\n  - action: utils.echo\n  - if ${1 +}:\n      - return: 1\n',
      /^line 3: procedure\.p step 2: /,
    ],
    [
      'an unknown event kind in a flow mapping',
      'event.hook.H:\n  then: [{action: utils.echo}]\n  if: {type: CustomEvnt}\n',
      /^line 3: .*unknown event kind "CustomEvnt"/,
    ],
    [
      'an unknown key of a hook',
      'event.hook.H:\n  if: {type: CustomEvent}\n  then: [{action: utils.echo}]\n  than: []\n',
      /^line 4: unknown key "than"/,
    ],
    [
      'a bad argument in a nested step',
      'cron.C:\n  cron_expression: "0 1 * * *"\n  actions:\n    - for x in ${[1, 2]}:\n        - action: utils.sleep\n          args: {seconds: 1, sekonds: 2}\n',
      /^line 6: cron\.C step 1 > for step 1: utils\.sleep: .*sekonds/,
    ],
    ['bad YAML', 'procedure.p:\n  - action: [utils.echo\n', /^line \d: not valid YAML/],
    [
      'two automations at once',
      'procedure.a:\n  - return: 1\nprocedure.b:\n  - return: 2\n',
      /^line 1: expected exactly one automation/,
    ],
  ];
  for (const [what, yaml, error] of cases)
    it(`refuses ${what} at its line, and writes nothing`, async () => {
      const before = readFileSync(t.configPath, 'utf8');
      const r = await callAs(t, 'automations.save', { yaml });
      expect(r.reason).toBe('INVALID_ARGUMENTS');
      expect(r.message).toMatch(error);
      expect(readFileSync(t.configPath, 'utf8')).toBe(before);
      expect(existsSync(join(dir(), 'automations.yaml'))).toBe(false);
    });

  it('refuses an edit that breaks another automation, and the running one stays', async () => {
    await ok(t, 'automations.save', { yaml: 'procedure.uses:\n  - action: procedure.lights\n' });
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.lights' });
    const del = await callAs(t, 'automations.delete', {
      name: 'procedure.lights',
      version: got.version,
    });
    expect(del.reason).toBe('INVALID_ARGUMENTS');
    expect(del.message).toContain('no procedure named "lights"');
    expect((await callAs(t, 'procedure.uses')).code).toBeUndefined();
  });
});

describe('automations.delete', () => {
  it('removes it from its file, keeps the previous version, and applies it at once', async () => {
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'cron.Nightly' });
    expect(
      await ok(t, 'automations.delete', { name: 'cron.Nightly', version: got.version }),
    ).toEqual({
      deleted: 'cron.Nightly',
    });
    // its block goes with the comment just above it; the rest stays as it was
    const text = readFileSync(t.configPath, 'utf8');
    expect(text.slice(text.indexOf('# lights'))).toBe(
      CONFIG.slice(0, CONFIG.indexOf('\n\n# the end')) + '\n',
    );
    expect(t.service.scheduler.list().map((c) => c.name)).toEqual([]);
    const history = join(dir(), 'data', 'automations-history');
    const copies = readdirSync(history);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatch(/^config\.yaml\.[0-9a-f]{8}\.\d{8}T\d{6}/);
    expect(readFileSync(join(history, copies[0]!), 'utf8')).toContain(CONFIG);
  });
});

describe('the run history', () => {
  it('records each save, delete and switch with its caller and arguments', async () => {
    const yaml = 'cron.Mine:\n  cron_expression: "0 5 * * *"\n  actions: [{action: utils.echo}]\n';
    await callAs(t, 'automations.save', { yaml }, { user: 'grace', via: 'token' });
    await callAs(t, 'automations.disable', { name: 'cron.Mine' }, { user: 'grace', via: 'token' });
    const { runs } = await ok<{ runs: { name: string; caller: unknown; args: unknown }[] }>(
      t,
      'runs.list',
      { action: 'automations.save' },
    );
    expect(runs[0]).toMatchObject({
      name: 'automations.save',
      caller: { user: 'grace', via: 'token' },
      args: { yaml },
    });
    const off = await ok<{ runs: { caller: unknown; args: unknown }[] }>(t, 'runs.list', {
      action: 'automations.disable',
    });
    expect(off.runs[0]).toMatchObject({
      caller: { user: 'grace', via: 'token' },
      args: { name: 'cron.Mine' },
    });
  });
});

describe('automations.yaml', () => {
  it('is loaded at start without an include, and once when the config includes it', async () => {
    await ok(t, 'automations.save', { yaml: 'procedure.saved:\n  - return: 7\n' });
    const plain = loadConfig({ path: t.configPath, plugins: builtinPlugins });
    expect(plain.procedures.map((p) => [p.key, p.source])).toEqual([
      ['procedure.lights(level=3)', t.configPath],
      ['procedure.saved', join(dir(), 'automations.yaml')],
    ]);
    writeFileSync(t.configPath, `include: automations.yaml\n${readFileSync(t.configPath, 'utf8')}`);
    const included = loadConfig({ path: t.configPath, plugins: builtinPlugins });
    expect(included.procedures.map((p) => p.key)).toEqual([
      'procedure.saved',
      'procedure.lights(level=3)',
    ]);
  });
});

describe('automations.save over HTTP', () => {
  it('answers a stale version with 409 CONFLICT, the file unchanged', async () => {
    const t = await makeApp(
      'cron.Nightly:\n  cron_expression: "0 23 * * *"\n  actions: [{action: utils.echo}]\n',
    );
    try {
      const token = await registerAndToken(t.app);
      const post = (action: string, args: Record<string, unknown>) =>
        t.app.inject({
          method: 'POST',
          url: '/execute',
          headers: { authorization: `Bearer ${token}` },
          payload: { type: 'request', action, args },
        });
      const got = (await post('automations.get', { name: 'cron.Nightly' })).json<{
        response: { output: { yaml: string; version: string } };
      }>().response.output;
      expect(
        (
          await post('automations.save', {
            yaml: got.yaml.replace('23', '22'),
            version: got.version,
          })
        ).statusCode,
      ).toBe(200);
      const before = readFileSync(t.configPath, 'utf8');
      const stale = await post('automations.save', {
        yaml: got.yaml.replace('23', '21'),
        version: got.version,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json<{ response: { errors: string[] } }>().response.errors.join(' ')).toContain(
        'changed since you opened it',
      );
      expect(readFileSync(t.configPath, 'utf8')).toBe(before);
    } finally {
      await t.close();
    }
  });
});

describe('automations.save with check', () => {
  it('answers as a save would and writes nothing', async () => {
    const t = await makeApp('');
    try {
      const bad = await callAs(t, 'automations.save', {
        yaml: 'cron.Typo:\n  cron_expression: "0 1 * * *"\n  actions:\n    - action: utils.ecko\n',
        check: true,
      });
      expect(bad.code).toBe('ACTION_FAILED');
      expect(bad.reason).toBe('INVALID_ARGUMENTS');
      expect(bad.errors).toEqual([expect.stringMatching(/^line 4: .*no action "ecko"/)]);
      const good = await ok<SaveOutput>(t, 'automations.save', {
        yaml: 'cron.Fine:\n  cron_expression: "0 1 * * *"\n  actions:\n    - action: utils.echo\n',
        check: true,
      });
      expect(good).toMatchObject({ name: 'cron.Fine', created: true, checked: true });
      expect(existsSync(join(t.dir, 'automations.yaml'))).toBe(false);
      const list = await ok<{ automations: { name: string }[] }>(t, 'automations.list', {});
      expect(list.automations.map((a) => a.name)).not.toContain('cron.Fine');
    } finally {
      await t.close();
    }
  });
});
