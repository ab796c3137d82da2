// Request messages (POST /execute bodies and /ws/requests frames): well-formed requests to known
// and odd actions, with wrong field types and random args.
import fc from 'fast-check';
import { DEVICE_ID, maybe } from './common.ts';
import { FILE_ACTIONS, fileCall, SHELL_ACTIONS, shellCall } from './plugins.ts';
import { args, key, number, objectOf, shortText, text, value } from './values.ts';

/** Actions of the running service (and a procedure from the fuzz configuration). */
export const KNOWN_ACTIONS = [
  'utils.echo',
  'utils.sleep',
  'variable.set',
  'variable.get',
  'variable.unset',
  'variable.list',
  'inspect.get_plugin',
  'inspect.get_all_plugins',
  'inspect.get_procedures',
  'event.fire',
  'event.kinds',
  'logger.info',
  'procedure.fuzzproc',
  'runs.list',
  'runs.get',
  'runs.replay',
  ...FILE_ACTIONS,
  ...SHELL_ACTIONS,
] as const;

const oddAction = fc.oneof(
  fc.constantFrom(
    'utils.nope',
    'procedure.nope',
    'nope.echo',
    'utils.__proto__',
    '__proto__.echo',
    'constructor.constructor',
    'utils.constructor',
    'utils.toString',
    'variable.hasOwnProperty',
    'procedure.__proto__',
    'procedure.constructor',
    'hook.send_response',
    'utils.',
    '.echo',
    'utils..echo',
    'ut',
    'utils.echo.extra',
    'UTILS.ECHO',
    'utils.echo ',
    'utils.echo\u0000',
    'utils.ech\u00f6',
    'a'.repeat(257),
    `utils.${'e'.repeat(300)}`,
  ),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z_][\w-]{0,10}$/), fc.stringMatching(/^[A-Za-z_][\w-]{0,10}$/))
    .map(([a, b]) => `${a}.${b}`),
  shortText,
);

const varName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('fuzz_a', 'fuzz_b', 'fuzz_c', 'fuzz_d') },
  { weight: 1, arbitrary: shortText },
);

const sleepSeconds = fc.oneof(
  fc.double({ min: 0, max: 0.005, noNaN: true }),
  fc.constantFrom(
    0,
    -1,
    -0.5,
    3601,
    1e308,
    Infinity,
    '0.001',
    '0',
    'later',
    '',
    null,
    true,
    [],
    {},
  ),
);

export const kindName = fc.oneof(
  fc.constantFrom(
    'CustomEvent',
    'pipit.message.event.custom.CustomEvent',
    'platypush.message.event.custom.CustomEvent',
    'svc.CustomEvent',
    'WebhookEvent',
    'ApplicationStartedEvent',
    'ApplicationStoppedEvent',
    'svc.',
    'Custom',
    '__proto__',
    'constructor',
    'toString',
  ),
  shortText,
);

/** A run id: well formed (mostly of no recorded run), or nearly so, or not a string. */
const runId = fc.oneof(
  fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n }).map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e15',
    '01795434578123776',
    '17954345781237760',
    '1795434578123776 ',
    '9'.repeat(400),
    '%',
    '_',
  ),
  shortText,
  value,
);

/** A time for runs.list's since/until: ISO 8601, epoch seconds, or neither. */
const runTime = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: 0, max: 4_000_000_000 }),
  fc.constantFrom(-1, 1e308, -1e308, 8.64e12, '2026-13-45T99:00:00Z', 'yesterday', '', '0'),
  value,
);

/** runs.list's filters, each of its type or of any other. */
const runFilters = fc.record(
  {
    action: fc.oneof(fc.constantFrom('utils.echo', 'procedure.fuzzproc', '%', '"'), value),
    outcome: fc.oneof(fc.constantFrom('ok', 'failed', 'FAILED'), value),
    transport: fc.oneof(
      fc.constantFrom(
        'http',
        'ws',
        'hook',
        'webhook',
        'cron',
        'procedure',
        'library',
        'cli',
        'replay',
        'HTTP',
        '"',
        '%',
        'http" OR 1=1 --',
        '',
      ),
      shortText,
      value,
    ),
    hook: fc.oneof(shortText, value),
    cron: fc.oneof(shortText, value),
    event_id: fc.oneof(shortText, value),
    since: runTime,
    until: runTime,
    text: fc.oneof(
      fc.constantFrom(
        '%',
        '_',
        '\\',
        '%_%',
        "'",
        '"',
        '""',
        '\\"',
        '"text":"',
        '{"',
        '"hello"',
        '"\u0000"',
        'hello',
        '\u0000',
        '\u001f',
        'a'.repeat(513),
      ),
      text,
      value,
    ),
    include_steps: fc.oneof(fc.boolean(), value),
    before: runId,
    limit: fc.oneof(fc.integer({ min: -5, max: 600 }), fc.constantFrom(0.5, 1e9), value),
  },
  { requiredKeys: [] },
);

/** An action with arguments shaped for it, or not. */
const call: fc.Arbitrary<[string, unknown]> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('utils.echo'), args) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('variable.set'),
      fc.dictionary(varName, value, { maxKeys: 3 }) as fc.Arbitrary<unknown>,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constant('variable.get'),
      fc.record({ name: fc.oneof(varName, value), default: value }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('variable.unset'),
      fc.record({ name: fc.oneof(varName, value) }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom(
        'variable.list',
        'event.kinds',
        'inspect.get_procedures',
        'inspect.get_all_plugins',
      ),
      maybe(args, 1, 3),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('inspect.get_plugin'),
      fc.record({
        name: fc.oneof(
          fc.constantFrom('utils', 'variable', 'inspect', '__proto__', 'constructor', 'nope'),
          value,
        ),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('utils.sleep'),
      fc.record({ seconds: sleepSeconds }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('event.fire'),
      fc.record(
        { subtype: fc.oneof(shortText, value), args: fc.oneof(args, value), kind: kindName },
        { requiredKeys: [] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('logger.info'),
      fc.record({ msg: fc.oneof(text, value) }, { requiredKeys: [] }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constant('procedure.fuzzproc'),
      fc.record({ v: value }, { requiredKeys: [] }),
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constant('runs.list'), runFilters as fc.Arbitrary<unknown>) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom('runs.get', 'runs.replay'),
      fc.record({ id: runId }, { requiredKeys: [] }),
    ),
  },
  { weight: 2, arbitrary: fileCall },
  { weight: 1, arbitrary: shellCall },
  { weight: 2, arbitrary: fc.tuple(oddAction, maybe(args, 3, 1)) },
);

export const requestId = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 129, maxLength: 200 }) },
  { weight: 1, arbitrary: number },
  { weight: 1, arbitrary: value },
);

/** A request message as an object: mostly well formed, often with one field of the wrong type. */
export const requestObject = fc
  .record({
    call,
    type: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('request', 'requests') },
      { weight: 1, arbitrary: value },
    ),
    id: maybe(requestId, 2, 1),
    target: maybe(fc.oneof(fc.constant(DEVICE_ID), shortText, value), 1, 8),
    wrongAction: maybe(value, 1, 15),
    wrongArgs: maybe(value, 1, 12),
    extra: maybe(fc.dictionary(key, value, { minKeys: 1, maxKeys: 2 }), 1, 8),
    drop: maybe(fc.constantFrom('type', 'action'), 1, 20),
  })
  .map(({ call: [action, callArgs], type, id, target, wrongAction, wrongArgs, extra, drop }) => {
    const entries: Array<[string, unknown]> = [
      ['type', drop === 'type' ? undefined : type],
      ['action', drop === 'action' ? undefined : (wrongAction ?? action)],
      ['args', wrongArgs ?? callArgs],
      ['id', id],
      ['target', target],
      ...Object.entries(extra ?? {}),
    ];
    const known = (KNOWN_ACTIONS as readonly string[]).includes(action);
    return {
      label: `request/${wrongAction === undefined && known ? action : 'other'}`,
      message: objectOf(entries),
    };
  });
