import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { redactUrlUserinfo, secret, secretUserinfo } from '../../src/core/action.ts';
import type { ParamShape } from '../../src/core/action.ts';
import { isSecretKey, SizedMasker } from '../../src/core/redact.ts';
import { isSecretName, SECRET_NAMES } from '../../src/lib/secret-names.ts';
import { maskSecretText } from '../../src/core/secret-text.ts';

const maskArgs = (args: Record<string, unknown>, params?: ParamShape) =>
  new SizedMasker().maskArgs(args, params);

describe('masking what the run history keeps', () => {
  it('masks credential keys at any depth, whatever their case or separator', () => {
    const args = {
      url: 'https://x',
      headers: { Authorization: 'Bearer abc', 'X-Api-Key': 'k', Accept: 'json' },
      nested: [{ password: 'p', keep: 1 }],
      client_secret: 's',
    };
    expect(maskArgs(args)).toEqual({
      url: 'https://x',
      headers: { Authorization: '[redacted]', 'X-Api-Key': '[redacted]', Accept: 'json' },
      nested: [{ password: '[redacted]', keep: 1 }],
      client_secret: '[redacted]',
    });
    // The caller's arguments are not modified.
    expect(args.headers.Authorization).toBe('Bearer abc');
  });

  it("masks the action's declared secret parameters whatever they are called", () => {
    const params = { topic: z.string(), pin: secret(z.string().optional()) };
    expect(maskArgs({ topic: 't', pin: '1234' }, params)).toEqual({
      topic: 't',
      pin: '[redacted]',
    });
  });

  it('masks the credentials of URLs marked secretUserinfo, keeping the rest of the address', () => {
    const params = { url: secretUserinfo(z.string().min(1)), other: z.string().optional() };
    expect(
      maskArgs({ url: 'http://ada:pw@host:8080/p?q=1#f', other: 'http://ada:pw@host/' }, params),
    ).toEqual({
      url: 'http://ada:[redacted]@host:8080/p?q=1#f',
      other: 'http://ada:[redacted]@host/',
    });
    const plain = { url: 'https://host/?a=b@c' };
    expect(maskArgs(plain, params)).toBe(plain);
    // A lone user name is how tokens travel (https://TOKEN@github.com/).
    expect(redactUrlUserinfo('https://TOKEN@github.com/x')).toBe('https://[redacted]@github.com/x');
    // The URL parser takes the last "@" of the authority: so does the masking.
    expect(redactUrlUserinfo('http://a@b:pw@host/')).toBe('http://a%40b:[redacted]@host/');
    expect(redactUrlUserinfo('redis://:pw@cache:6379/0')).toBe('redis://:[redacted]@cache:6379/0');
    // Text the URL parser refuses loses its whole user info.
    expect(redactUrlUserinfo('http://ada:pw@exa mple/')).toBe('http://[redacted]@exa mple/');
    expect(redactUrlUserinfo('not a url, mail me at a@b.c')).toBe('not a url, mail me at a@b.c');
  });

  it('returns the same object when nothing is secret (no copy on the hot path)', () => {
    const args = { text: 'hi', list: [1, { a: 2 }] };
    expect(maskArgs(args)).toBe(args);
  });

  it('stops at a depth limit instead of recursing without end', () => {
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 100; i++) at = at.next = {};
    expect(JSON.stringify(maskArgs(deep))).toContain('[too deep]');
  });

  it('matches whole key names only', () => {
    expect(['token', 'Access-Token', 'passwd', 'cookie'].every(isSecretKey)).toBe(true);
    expect(['tokens_used', 'author', 'password_hint_shown', 'text'].some(isSecretKey)).toBe(false);
  });
});

describe('SizedMasker', () => {
  const masker = new SizedMasker();
  const sized = (value: unknown) => {
    const masked = masker.mask(value);
    return { masked, size: masker.size, length: (JSON.stringify(masked) ?? 'null').length };
  };

  it('bounds the JSON of what it returns, escapes and extreme numbers included', () => {
    const values: unknown[] = [
      'plain',
      'quote " backslash \\ newline \n tab \t',
      '\u0000\u001f control characters',
      'lone surrogate \ud800 and an emoji 😀',
      -0.0000012345678901234567,
      -1.7976931348623157e308,
      Number.MIN_VALUE,
      NaN,
      true,
      null,
      [],
      {},
      [undefined, () => 1, Symbol('s'), [[[]]]],
      { gone: undefined, fn: () => 1, 'k"ey\n': 'v', nested: { a: [1, 'two', { three: 3 }] } },
      { password: 'x'.repeat(500), list: [{ token: 't' }] },
    ];
    for (const value of values) {
      const { size, length } = sized(value);
      expect(size, JSON.stringify(value)).toBeGreaterThanOrEqual(length);
    }
  });

  it('measures the value it returns: masked, and cut at its depth limit', () => {
    const masked = sized({ password: 'x'.repeat(500) });
    expect(masked.masked).toEqual({ password: '[redacted]' });
    expect(masked.size).toBeLessThan(100);
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 100; i++) at = at.next = { pad: 'p'.repeat(100) };
    const cut = sized(deep);
    expect(JSON.stringify(cut.masked)).toContain('[too deep]');
    expect(cut.size).toBeGreaterThanOrEqual(cut.length);
  });

  it('cannot bound values whose JSON is their own (toJSON) or that JSON refuses (BigInt)', () => {
    expect(sized({ when: new Date(0) }).size).toBe(Infinity);
    expect(sized([Buffer.from('abc')]).size).toBe(Infinity);
    masker.mask({ n: 10n });
    expect(masker.size).toBe(Infinity);
    // The next value starts from nothing.
    expect(sized({ n: 1 }).size).toBeLessThan(50);
  });

  it('masks declared secret parameters and credential keys in one call', () => {
    const params = { topic: z.string(), pin: secret(z.string().optional()) };
    expect(masker.maskArgs({ topic: 't', pin: '1234', token: 'x' }, params)).toEqual({
      topic: 't',
      pin: '[redacted]',
      token: '[redacted]',
    });
  });
});

describe('the secret names and secret-shaped strings', () => {
  it('knows every listed name, in any case, with - and _ alike, x- prefixed or not', () => {
    for (const name of SECRET_NAMES) {
      const dashed = name.replaceAll('_', '-');
      for (const spelling of [name, dashed, name.toUpperCase(), `X-${dashed}`, `x_${name}`])
        expect(isSecretKey(spelling), spelling).toBe(true);
    }
    const issue = ['access_token', 'api_key', 'apitoken', 'X-Auth-Token', 'Private-Token'];
    const answers = ['id_token', 'session', 'jwt', 'X-Gitlab-Token', 'X-Hub-Signature-256'];
    expect([...issue, ...answers].filter((n) => !isSecretKey(n))).toEqual([]);
  });

  it('masks names ending in a secret word, and keeps names that only contain one', () => {
    const secret = ['github_token', 'dbPassword', 'webhookSecret', 'stripe_api_key', 'APIToken'];
    expect(secret.filter((n) => !isSecretName(n))).toEqual([]);
    const kept = ['tokens_used', 'max_tokens', 'token_type', 'password_hint', 'secretary', 'key'];
    expect(kept.filter(isSecretName)).toEqual([]);
  });

  it('masks credentials inside strings and keeps the rest', () => {
    const cases: [string, string][] = [
      [
        'https://x/cb?page=2&access_token=A&apitoken=B',
        'https://x/cb?page=2&access_token=[redacted]&apitoken=[redacted]',
      ],
      ['https://app/#id_token=C&state=1', 'https://app/#id_token=[redacted]&state=1'],
      ['user=ada&password=D', 'user=ada&password=[redacted]'],
      ['https://TOKEN@github.com/x', 'https://[redacted]@github.com/x'],
      ['auth: Bearer abc.DEF-123', 'auth: Bearer [redacted]'],
      ['Basic YWRhOnB3', 'Basic [redacted]'],
      ['a eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.sig b', 'a [redacted] b'],
      ['{"error":"bad","session":"S"}', '{"error":"bad","session":"[redacted]"}'],
      [`token ghp_${'a'.repeat(36)}`, 'token [redacted]'],
    ];
    for (const [text, masked] of cases) expect(maskSecretText(text), text).toBe(masked);
    // A URL nested unencoded in another's query keeps its own parameters apart.
    expect(maskSecretText('https://a/?next=https://b/?token=T&x=1')).toBe(
      'https://a/?next=https://b/?token=[redacted]&x=1',
    );
    // Text that would make a scan quadratic is read once.
    const hostile = `${'a.'.repeat(200_000)}@ ${'?a='.repeat(100_000)}`;
    expect(maskSecretText(hostile)).toBe(hostile);
    for (const text of ['the bearer instrument', 'basic authentication', 'x=1&y=2', 'a@b.c'])
      expect(maskSecretText(text)).toBe(text);
  });

  it('masks them in values at any depth, headers objects included', () => {
    expect(
      maskArgs({ output: { url: 'https://h/?api_key=K', headers: { 'Set-Cookie': ['a=1'] } } }),
    ).toEqual({
      output: { url: 'https://h/?api_key=[redacted]', headers: { 'Set-Cookie': '[redacted]' } },
    });
  });
});
