import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PipitError } from '../core/errors.ts';
import { parseProcedure, parseProcedureKey, parseSteps } from './dsl.ts';
import type { ForStep, IfStep, Step } from './dsl.ts';

function invalid(fn: () => unknown, pattern: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(PipitError);
  expect((caught as PipitError).code).toBe('CONFIG_INVALID');
  expect((caught as PipitError).message).toMatch(pattern);
}

describe('parseProcedureKey', () => {
  it('reads name and parameters', () => {
    expect(parseProcedureKey('procedure.morning(volume, device)')).toEqual({
      name: 'morning',
      params: ['volume', 'device'],
      defaults: {},
    });
    expect(parseProcedureKey('procedure.morning')).toEqual({
      name: 'morning',
      params: [],
      defaults: {},
    });
    expect(parseProcedureKey('procedure.morning()')).toEqual({
      name: 'morning',
      params: [],
      defaults: {},
    });
    expect(parseProcedureKey('procedure.lights.on(level)')).toEqual({
      name: 'lights.on',
      params: ['level'],
      defaults: {},
    });
    expect(parseProcedureKey('procedure.m(volume=50, device=null, name="den", on=true)')).toEqual({
      name: 'm',
      params: ['volume', 'device', 'name', 'on'],
      defaults: { volume: 50, device: null, name: 'den', on: true },
    });
    // Commas inside quotes and brackets belong to the default, not to the list.
    expect(
      parseProcedureKey(`procedure.d(w="a,b", v=[1, 2], m={x: 1, y: 2}, q='it''s, ok', z)`),
    ).toEqual({
      name: 'd',
      params: ['w', 'v', 'm', 'q', 'z'],
      defaults: { w: 'a,b', v: [1, 2], m: { x: 1, y: 2 }, q: "it's, ok" },
    });
    expect(parseProcedureKey('procedure.sync.night')).toEqual({
      name: 'night',
      params: [],
      defaults: {},
    });
  });

  it('refuses malformed keys', () => {
    invalid(() => parseProcedureKey('morning'), /expected "procedure.<name>"/);
    invalid(() => parseProcedureKey('procedure.'), /expected "procedure.<name>"/);
    invalid(() => parseProcedureKey('procedure.x(a'), /expected "procedure.<name>"/);
    invalid(() => parseProcedureKey('procedure.x(a b)'), /parameter "a b".*identifier/);
    invalid(() => parseProcedureKey('procedure.x(a, a)'), /"a" is declared twice/);
    invalid(() => parseProcedureKey('procedure.x(__proto__)'), /reserved name/);
    invalid(() => parseProcedureKey('procedure.async.x'), /async procedures are not supported/);
    invalid(
      () => parseProcedureKey('procedure.x(a=[1, 2)'),
      /^procedure\.x\(a=\[1, 2\): parameter "a": its default \[1, 2 is not a YAML value \(.*\): quote text/,
    );
  });
});

describe('parseProcedure', () => {
  it('parses the Platypush YAML syntax', () => {
    const config = parseYaml(`
procedure.morning(volume, device):
  - action: music.spotify.set_volume
    args:
      volume: \${volume}
      device: \${device}
  - if \${volume > 50}:
      - action: logger.info
        args: {msg: loud}
  - elif \${volume > 20}:
      - set: {level: medium}
  - else:
      - return: quiet
  - for track in \${tracks}:
      - action: music.spotify.add
        args:
          resource: \${track}
        ignore_errors: true
      - continue
  - fork d in \${devices}:
      - action: music.spotify.pause
        args: {device: '\${d}'}
  - while \${n < 3}:
      - set:
          n: \${n + 1}
      - break
  - return \${n}
`) as Record<string, unknown>;
    const [key, body] = Object.entries(config)[0]!;
    const proc = parseProcedure(key, body);
    expect(proc.name).toBe('morning');
    expect(proc.params).toEqual(['volume', 'device']);
    expect(proc.steps.map((s) => s.kind)).toEqual([
      'action',
      'if',
      'for',
      'for',
      'while',
      'return',
    ]);

    const action = proc.steps[0] as Extract<Step, { kind: 'action' }>;
    expect(action.action).toBe('music.spotify.set_volume');
    expect(action.path).toBe('procedure.morning step 1');
    expect(action.args.evaluate({ volume: 5, device: 'd' })).toEqual({ volume: 5, device: 'd' });

    const ifStep = proc.steps[1] as IfStep;
    expect(ifStep.branches).toHaveLength(2);
    expect(ifStep.branches[1]!.path).toBe('procedure.morning step 3');
    expect(ifStep.otherwise?.[0]?.kind).toBe('return');
    expect(ifStep.branches[0]!.condition.evaluate({ volume: 60 })).toBe(true);

    const forStep = proc.steps[2] as ForStep;
    expect(forStep.parallel).toBe(false);
    expect(forStep.variable).toBe('track');
    expect(forStep.steps[0]).toMatchObject({ kind: 'action', ignoreErrors: true });
    expect(forStep.steps[1]).toMatchObject({
      kind: 'continue',
      path: 'procedure.morning step 5 > for > step 2',
    });
    expect((proc.steps[3] as ForStep).parallel).toBe(true);
  });

  it('accepts a single step object as a body and args as one expression', () => {
    const steps = parseSteps({ action: 'a.b', args: '${params}' }, 'cron.X actions');
    expect(steps).toHaveLength(1);
    const step = steps[0] as Extract<Step, { kind: 'action' }>;
    expect(step.args.evaluate({ params: { q: 1 } })).toEqual({ q: 1 });
  });

  it('compiles expressions at load and names the step path', () => {
    invalid(
      () =>
        parseProcedure('procedure.morning', [
          { action: 'a.b' },
          { 'if ${x}': [{ action: 'a.b', args: { v: '${1 +}' } }] },
        ]),
      /^procedure\.morning step 2 > if > step 1: expression "1 \+": syntax error/,
    );
    invalid(
      () => parseProcedure('procedure.p', [{ 'while ${process.exit()}': [] }]),
      /procedure\.p step 1: .*method calls are limited to .*`process\.exit\(\)` is not allowed/,
    );
    invalid(
      () => parseProcedure('procedure.p', [{ set: { x: '${require("fs")}' } }]),
      /procedure\.p step 1 > set x: .*unknown function 'require'/,
    );
  });

  it('refuses malformed steps with what was expected', () => {
    const cases: [unknown, RegExp][] = [
      ['nope', /procedure\.p: .*array|procedure\.p: Invalid/i],
      [[42], /step 1: expected a step/],
      [[{ action: 'nodot' }], /step 1 "action": must look like "plugin.action"/],
      [[{ action: 'a.b', extra: 1 }], /step 1: Unrecognized key.*extra/],
      [[{ action: 'a.b', ignore_errors: 'yes' }], /step 1 "ignore_errors"/],
      [[{ action: 'a.b', args: [1] }], /step 1 "args"/],
      [[{ set: { 'bad name': 1 } }], /step 1 "set.bad name": must be an identifier/],
      [
        JSON.parse('[{"set": {"__proto__": {"polluted": 1}}}]'),
        /"set.__proto__": is a reserved name/,
      ],
      [parseYaml('- set:\n    __proto__: 1\n'), /"set.__proto__": is a reserved name/],
      [[{ set: { constructor: 1 } }], /"set.constructor": is a reserved name/],
      [[{ set: {} }], /step 1 "set": is empty/],
      [[{ return: 1, other: 2 }], /Unrecognized key/],
      [[{ 'if x > 1': [] }], /unknown step key "if x > 1"/],
      [[{ 'if ${a} and ${b}': [] }], /expected if \$\{expression\}/],
      [[{ 'if ${a}': [], else: [] }], /exactly one key, got 2/],
      [[{ else: [] }], /step 1: 'else' without a preceding 'if'/],
      [[{ action: 'a.b' }, { 'elif ${x}': [] }], /step 2: 'elif' without a preceding 'if'/],
      [[{ 'if ${x}': [] }, { else: [] }, { else: [] }], /step 3: 'else' without/],
      [[{ 'for 1x in ${l}': [] }], /loop variable.*identifier/],
      [[{ 'for x in l': [] }], /unknown step key/],
      [['break'], /step 1: 'break' outside a for\/while loop/],
      [['continue'], /'continue' outside/],
      [[{ 'fork x in ${l}': ['break'] }], /step 1 > fork > step 1: 'break' inside fork/],
      [['jump'], /unknown step "jump"/],
      [[{ 'if ${x}': 'not a list' }], /step 1 > if/],
    ];
    for (const [body, pattern] of cases)
      invalid(() => parseProcedure('procedure.p', body), pattern);
  });

  it('allows break in a loop nested inside fork, and continue in fork', () => {
    const steps = parseSteps(
      [{ 'fork x in ${l}': ['continue', { 'for y in ${x}': ['break'] }] }],
      'procedure.p',
    );
    expect((steps[0] as ForStep).steps[1]?.kind).toBe('for');
  });

  it('limits block nesting', () => {
    let body: unknown = [{ action: 'a.b' }];
    for (let i = 0; i < 40; i++) body = [{ 'if ${true}': body }];
    invalid(() => parseSteps(body, 'procedure.deep'), /nested deeper than 32/);
  });

  it('keeps the if/else pairing local to one list', () => {
    const steps = parseSteps(
      [
        { 'if ${a}': [{ action: 'x.y' }] },
        { action: 'x.z' },
        { 'if ${b}': [] },
        { else: ['return'] },
      ],
      'p',
    );
    expect((steps[0] as IfStep).otherwise).toBeNull();
    expect((steps[2] as IfStep).otherwise?.[0]?.kind).toBe('return');
  });
});
