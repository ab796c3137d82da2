import { expect, test } from 'vitest';
import { validator } from './support/harness.ts';
const ex = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  ct = 'application/json',
) => ({
  method,
  url: new URL(`http://x${path}`),
  status,
  contentType: ct,
  responseText: body === '' ? '' : JSON.stringify(body),
});
test('neg', () => {
  expect(() => validator.validate(ex('GET', '/v1/me/player', 200, { is_playing: 'yes' }))).toThrow(
    /is_playing/,
  );
  expect(() => validator.validate(ex('GET', '/v1/nope', 200, {}))).toThrow(/no operation/);
  expect(() => validator.validate(ex('GET', '/v1/me/tracks', 200, { items: [] }))).toThrow(
    /required/,
  );
  expect(() =>
    validator.validate(
      ex('GET', '/v1/me/player/queue', 200, {
        currently_playing: { type: 'track', name: 3 },
        queue: [],
      }),
    ),
  ).toThrow();
  expect(() => validator.validate(ex('GET', '/v1/me/player', 201, {}))).toThrow(/not declared/);
  expect(() =>
    validator.validate(
      ex('GET', '/v1/me/tracks?limit=80', 200, {
        href: '',
        items: [],
        limit: 1,
        next: null,
        offset: 0,
        previous: null,
        total: 0,
      }),
    ),
  ).toThrow(/limit/);
  validator.validate(ex('GET', '/v1/me/player/queue', 200, { currently_playing: null, queue: [] }));
});
