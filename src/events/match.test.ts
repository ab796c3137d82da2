import { describe, expect, it } from 'vitest';
import { PipitError } from '../core/errors.ts';
import { MAX_REGEX_INPUT, compileCondition, kindMatches, matchCondition } from './match.ts';

const CUSTOM = 'pipit.message.event.custom.CustomEvent';
const WEBHOOK = 'pipit.message.event.http.hook.WebhookEvent';

function refused(condition: unknown, pattern: RegExp): void {
  let caught: unknown;
  try {
    compileCondition(condition);
  } catch (err) {
    caught = err;
  }
  expect(caught, JSON.stringify(condition)).toBeInstanceOf(PipitError);
  expect((caught as PipitError).code).toBe('CONFIG_INVALID');
  expect((caught as PipitError).message).toMatch(pattern);
}

describe('kindMatches', () => {
  it.each([
    [CUSTOM, true],
    ['CustomEvent', true],
    ['custom.CustomEvent', true],
    ['event.custom.CustomEvent', true],
    ['svc.message.event.custom.CustomEvent', true],
    ['platypush.message.event.custom.CustomEvent', true],
    ['Event', false],
    ['omEvent', false],
    ['ustom.CustomEvent', false],
    ['WebhookEvent', false],
    ['svc.message.event.custom', false],
    ['other.message.event.custom.CustomEvent', false],
    ['', false],
  ])('%s → %s', (pattern, expected) => {
    expect(kindMatches(pattern, CUSTOM)).toBe(expected);
  });

  it('accepts an svc.-prefixed event kind too', () => {
    expect(kindMatches('CustomEvent', 'svc.message.event.custom.CustomEvent')).toBe(true);
    expect(kindMatches(CUSTOM, 'svc.message.event.custom.CustomEvent')).toBe(true);
  });

  it('handles deeper kinds', () => {
    expect(kindMatches('WebhookEvent', WEBHOOK)).toBe(true);
    expect(kindMatches('hook.WebhookEvent', WEBHOOK)).toBe(true);
    expect(kindMatches('http.hook.WebhookEvent', WEBHOOK)).toBe(true);
    expect(kindMatches('CustomEvent', WEBHOOK)).toBe(false);
  });
});

describe('compileCondition: fields', () => {
  const event = {
    type: CUSTOM,
    subtype: 'door_open',
    args: { level: 4, room: 'hall', tags: ['a', 'b'], nested: { deep: true } },
  };

  it('matches type and equal fields', () => {
    expect(matchCondition({ type: 'CustomEvent', subtype: 'door_open' }, event)).toBe(true);
    expect(matchCondition({ type: 'CustomEvent', subtype: 'door_closed' }, event)).toBe(false);
    expect(matchCondition({ type: 'WebhookEvent' }, event)).toBe(false);
    expect(matchCondition({ subtype: 'door_open' }, event)).toBe(true);
    expect(matchCondition({}, event)).toBe(true);
    expect(matchCondition(null, event)).toBe(true);
  });

  it('compares without coercion', () => {
    expect(matchCondition({ args: { level: '4' } }, event)).toBe(false);
    expect(matchCondition({ args: { level: 4 } }, event)).toBe(true);
  });

  it('nested objects are a recursive subset match; arrays are exact', () => {
    expect(matchCondition({ args: { room: 'hall' } }, event)).toBe(true);
    expect(matchCondition({ args: { nested: { deep: true } } }, event)).toBe(true);
    expect(matchCondition({ args: { nested: { deep: false } } }, event)).toBe(false);
    expect(matchCondition({ args: { room: 'hall', missing: 1 } }, event)).toBe(false);
    expect(matchCondition({ args: { tags: ['a', 'b'] } }, event)).toBe(true);
    expect(matchCondition({ args: { tags: ['a'] } }, event)).toBe(false);
    expect(matchCondition({ subtype: { x: 1 } }, event)).toBe(false);
  });

  it('missing fields do not match null', () => {
    expect(matchCondition({ nope: null }, event)).toBe(false);
    expect(matchCondition({ nope: null }, { ...event, nope: null })).toBe(true);
  });

  it('never reads inherited properties', () => {
    expect(matchCondition({ toString: { $exists: true } }, event)).toBe(false);
    expect(matchCondition({ args: { constructor: { $exists: true } } }, event)).toBe(false);
    const hostile = JSON.parse('{"type": "x.CustomEvent", "__proto__": {"a": 1}}') as Record<
      string,
      unknown
    >;
    expect(matchCondition({ a: 1 }, hostile)).toBe(false);
    expect(matchCondition(JSON.parse('{"__proto__": {"$exists": true}}'), hostile)).toBe(false);
  });

  it('a non-object event or a missing type never matches a typed condition', () => {
    const match = compileCondition({ type: 'CustomEvent' });
    expect(match({ subtype: 'x' })).toBe(false);
    expect(match({ type: 42 })).toBe(false);
    expect(match(null as never)).toBe(false);
  });
});

describe('compileCondition: operators', () => {
  const ev = { type: WEBHOOK, hook: 'door', method: 'POST', data: { n: 5, s: 'Kitchen Light' } };
  const cases: [unknown, boolean][] = [
    [{ data: { n: { $eq: 5 } } }, true],
    [{ data: { n: { $eq: '5' } } }, false],
    [{ data: { n: { $ne: 4 } } }, true],
    [{ data: { n: { $ne: 5 } } }, false],
    [{ data: { missing: { $ne: 5 } } }, true],
    [{ data: { n: { $gt: 4 } } }, true],
    [{ data: { n: { $gt: 5 } } }, false],
    [{ data: { n: { $gte: 5 } } }, true],
    [{ data: { n: { $lt: 5 } } }, false],
    [{ data: { n: { $lte: 5 } } }, true],
    [{ data: { n: { $gte: 1, $lt: 10 } } }, true],
    [{ data: { n: { $gte: 1, $lt: 3 } } }, false],
    [{ data: { s: { $gt: 'A' } } }, true],
    [{ data: { s: { $gt: 1 } } }, false],
    [{ data: { missing: { $lt: 1 } } }, false],
    [{ method: { $in: ['GET', 'POST'] } }, true],
    [{ method: { $in: ['GET'] } }, false],
    [{ method: { $nin: ['GET'] } }, true],
    [{ method: { $nin: ['POST'] } }, false],
    [{ missing: { $nin: ['POST'] } }, true],
    [{ data: { s: { $regex: '^kitchen', $options: 'i' } } }, true],
    [{ data: { s: { $regex: '^kitchen' } } }, false],
    [{ data: { n: { $regex: '5' } } }, false],
    [{ data: { s: { $exists: true } } }, true],
    [{ data: { x: { $exists: false } } }, true],
    [{ data: { x: { $exists: true } } }, false],
    [{ hook: { $exists: false } }, false],
  ];
  it.each(cases)('%j → %s', (condition, expected) => {
    expect(matchCondition(condition, ev)).toBe(expected);
  });

  it('$regex does not run on oversized input', () => {
    const match = compileCondition({ data: { $regex: 'x' } });
    expect(match({ data: 'x'.repeat(MAX_REGEX_INPUT) })).toBe(true);
    expect(match({ data: 'x'.repeat(MAX_REGEX_INPUT + 1) })).toBe(false);
  });
});

describe('compileCondition: validation at load time', () => {
  it.each([
    ['not an object', /expected an object of event fields, got string/],
    [[1], /got array/],
    [{ type: 42 }, /condition type: expected an event kind name/],
    [{ type: '' }, /condition type/],
    [{ $or: [] }, /condition \$or: operators apply to a field/],
    [{ a: { $foo: 1 } }, /condition a\.\$foo: unknown operator/],
    [{ a: { $gt: 1, b: 2 } }, /condition a: mixes \$operators with field names/],
    [{ a: { $gt: [1] } }, /a\.\$gt: expects a number or a string, got array/],
    [{ a: { $in: 'x' } }, /a\.\$in: expects a list, got string/],
    [{ a: { $nin: null } }, /a\.\$nin: expects a list/],
    [{ a: { $exists: 'yes' } }, /a\.\$exists: expects true or false/],
    [{ a: { $regex: 5 } }, /a\.\$regex: expects a string/],
    [{ a: { $regex: '(' } }, /a\.\$regex: invalid regular expression/],
    [{ a: { $regex: 'x', $options: 'g' } }, /a\.\$options: expects flags/],
    [{ a: { $options: 'i' } }, /\$options without \$regex/],
    [{ a: { $regex: 'x'.repeat(300) } }, /longer than 256/],
    [{ a: { $regex: '(a+)+$' } }, /catastrophic/],
    [{ a: { $regex: '((a*))*' } }, /catastrophic/],
    [{ a: { $regex: '(a|aa)*b' } }, /catastrophic/],
    [{ a: { $regex: '(\\w+\\s?)*$' } }, /catastrophic/],
    [{ a: { $regex: '(.*){2,}' } }, /catastrophic/],
    [{ a: { $regex: '(a)\\1' } }, /back-references/],
    [{ b: { c: { d: { $regex: '(x+)+' } } } }, /condition b\.c\.d\.\$regex: .*catastrophic/],
  ])('refuses %j', (condition, pattern) => {
    refused(condition, pattern);
  });

  it('accepts safe regexes', () => {
    for (const re of [
      '^door_(open|closed)$',
      '[ab]*c',
      '\\d+-\\d+',
      '(abc)+',
      '^(?:on|off)?$',
      'a{2,3}',
    ]) {
      expect(() => compileCondition({ a: { $regex: re } }), re).not.toThrow();
    }
  });

  it('refuses absurdly deep conditions', () => {
    let cond: unknown = 1;
    for (let i = 0; i < 100; i++) cond = { a: cond };
    refused(cond, /nested deeper than 32/);
  });
});
