// automations.list and automations.get: every kind, from YAML and from scripts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetOutput, ListOutput } from '../../../src/plugins/automations/wire.ts';
import { automationsApp, callAs, ok } from './app.ts';

const YAML = `# the morning routine
procedure.morning(volume, room="hall"):
  - action: utils.echo
    args: {v: '\${volume}'}
  - if \${volume > 50}:
      - action: logger.info
        args: {msg: loud}
  - else:
      - return: quiet

# the door
event.hook.OnDoor:
  if: {type: CustomEvent, subtype: door, args: {level: {$gte: 3}}}
  then:
    - action: utils.echo

event.hook.Bell:
  if: {type: WebhookEvent, hook: bell}
  then:
    - action: utils.echo

cron.Nightly:
  cron_expression: '0 23 * * *'
  timezone: Europe/Rome
  actions:
    - action: utils.echo
`;

const SCRIPT = `import { hook, cron, procedure } from 'pipit';
procedure('greet', ['name'], ({ name }) => 'hi ' + name);
hook('WebhookEvent', { hook: 'ping' }, () => 'pong', { name: 'Ping' });
hook('CustomEvent', { subtype: 'x' }, () => 1);
cron('0 4 * * *', () => 1, { name: 'Early' });
`;

let t: Awaited<ReturnType<typeof automationsApp>>;
beforeAll(async () => {
  t = await automationsApp(YAML, { scripts: { 'extra.mjs': SCRIPT } });
});
afterAll(() => t.close());

describe('automations.list', () => {
  it('lists every kind from YAML and scripts, with source, schedule, url and condition', async () => {
    const { automations } = await ok<ListOutput>(t, 'automations.list');
    const by = Object.fromEntries(automations.map((a) => [a.name, a]));
    expect(Object.keys(by).sort()).toEqual([
      'cron.Early',
      'cron.Nightly',
      'event.hook.Bell',
      'event.hook.OnDoor',
      'event.hook.Ping',
      'event.hook.extra#2',
      'procedure.greet',
      'procedure.morning',
    ]);
    // makeApp's config has 5 lines before ours (device_id, workdir, backend.http and its 2 keys,
    // scripts_dir): the key of procedure.morning is on line 8.
    expect(by['procedure.morning']).toMatchObject({
      kind: 'procedure',
      source: { type: 'yaml', file: t.configPath, line: 8 },
      editable: true,
      enabled: true,
      params: [
        { name: 'volume', required: true },
        { name: 'room', required: false, default: 'hall' },
      ],
      schedule: null,
      url: null,
    });
    expect(by['event.hook.OnDoor']).toMatchObject({
      kind: 'event_hook',
      condition: 'when a CustomEvent arrives with subtype = "door" and args.level ≥ 3',
      url: null,
    });
    expect(by['event.hook.Bell']).toMatchObject({
      kind: 'web_hook',
      url: '/hook/bell',
      condition: 'when /hook/bell is called',
    });
    expect(by['cron.Nightly']).toMatchObject({
      kind: 'cron',
      schedule: '0 23 * * *',
      timezone: 'Europe/Rome',
      last_run: null,
    });
    expect(Date.parse(by['cron.Nightly']!.next_run!)).toBeGreaterThan(Date.now());
    expect(by['event.hook.Ping']).toMatchObject({
      kind: 'web_hook',
      url: '/hook/ping',
      editable: false,
      source: { type: 'script', file: expect.stringMatching(/scripts\/extra\.mjs$/) as string },
    });
    expect(by['cron.Early']).toMatchObject({
      kind: 'cron',
      editable: false,
      schedule: '0 4 * * *',
    });
    expect(by['procedure.greet']).toMatchObject({
      params: [{ name: 'name', required: false }],
      editable: false,
    });
  });

  it('filters by kind, text, failing and disabled, and shows the last run', async () => {
    const kinds = await ok<ListOutput>(t, 'automations.list', { kind: 'web_hook' });
    expect(kinds.automations.map((a) => a.name)).toEqual(['event.hook.Bell', 'event.hook.Ping']);
    const text = await ok<ListOutput>(t, 'automations.list', { search: 'NIGHT' });
    expect(text.automations.map((a) => a.name)).toEqual(['cron.Nightly']);
    await callAs(t, 'procedure.morning', {});
    const failing = await ok<ListOutput>(t, 'automations.list', { failing: true });
    expect(failing.automations.map((a) => a.name)).toEqual(['procedure.morning']);
    expect(failing.automations[0]!.last_run).toMatchObject({ outcome: 'failed' });
    await ok(t, 'automations.disable', { name: 'cron.Early' });
    const off = await ok<ListOutput>(t, 'automations.list', { disabled: true });
    expect(off.automations.map((a) => [a.name, a.enabled, a.next_run])).toEqual([
      ['cron.Early', false, null],
    ]);
    await ok(t, 'automations.enable', { name: 'cron.Early' });
  });
});

describe('automations.get', () => {
  it('returns the YAML as written with its comment, a version and the steps as a tree', async () => {
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.morning' });
    expect(got.yaml).toBe(YAML.slice(0, YAML.indexOf('\n\n# the door')) + '\n');
    expect(got.version).toMatch(/^[0-9a-f]{16}$/);
    expect(got.outline).toEqual([
      { type: 'action', action: 'utils.echo', args: { v: '${volume}' } },
      {
        type: 'if',
        condition: 'volume > 50',
        then: [{ type: 'action', action: 'logger.info', args: { msg: 'loud' } }],
        elif: [],
        else: [{ type: 'return', value: 'quiet' }],
      },
    ]);
    const door = await ok<GetOutput>(t, 'automations.get', { name: 'event.hook.OnDoor' });
    expect(door.yaml.startsWith('# the door\nevent.hook.OnDoor:\n')).toBe(true);
    expect(door.yaml.endsWith('    - action: utils.echo\n')).toBe(true);
  });

  it('gives a script automation its source, read-only, and its recent runs', async () => {
    await callAs(t, 'procedure.greet', { name: 'ada' });
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.greet' });
    expect(got).toMatchObject({ editable: false, yaml: '', outline: [], script_source: SCRIPT });
    expect(got.runs[0]).toMatchObject({ outcome: 'ok' });
  });

  it('answers NOT_FOUND with a suggestion for an unknown name', async () => {
    const r = await callAs(t, 'automations.get', { name: 'cron.Nightlly' });
    expect(r.reason).toBe('NOT_FOUND');
    expect(r.message).toContain('cron.Nightly');
  });
});
