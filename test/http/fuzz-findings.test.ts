// Inputs the fuzz suite (tools/fuzz) found, kept as regression tests: a `__proto__` key that became
// the args' prototype, values that made zod throw (a 500), and a HEAD answer with a body.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect } from './ws-client.ts';
import { listening } from '../helpers/listening.ts';
import type { Listening } from '../helpers/listening.ts';
import { rawConnect } from '../helpers/raw-http.ts';

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());
afterEach(() => closeAll());

const HOSTILE = { length: [{ toString: '' }] };

describe('fuzz findings', () => {
  it('a __proto__ key in args stays a key on /ws/requests (numeric id, via the schema)', async () => {
    const c = await connect(`${s.ws}/ws/requests`, { headers: s.auth });
    c.ws.send(
      '{"type":"request","action":"utils.echo","args":{"__proto__":{"polluted":1}},"id":0}',
    );
    const frame = await c.next();
    expect(frame.response.errors).toEqual([]);
    expect(Object.keys(frame.response.output)).toEqual(['__proto__']);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it.each([
    ['id', { type: 'request', action: 'utils.echo', id: HOSTILE }],
    ['action', { type: 'request', action: HOSTILE }],
    ['target', { type: 'request', action: 'utils.echo', target: HOSTILE }],
    ['args.name', { type: 'request', action: 'variable.get', args: { name: HOSTILE } }],
  ])('a value zod cannot stringify in %s: 400, not 500, naming the field', async (_field, body) => {
    const res = await fetch(`${s.http}/execute`, {
      method: 'POST',
      headers: { ...s.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { response: { errors: string[] } };
    expect(json.response.errors.join(' ')).not.toMatch(/internal error/);
    // The message names the field that holds the value (its last key: "name" for args.name).
    expect(json.response.errors.join(' ')).toContain(`"${_field.split('.').at(-1)}"`);
  });

  it('the same on /ws/events: an error frame that says what is wrong', async () => {
    const c = await connect(`${s.ws}/ws/events`, { headers: s.auth });
    c.send({ type: 'event', args: { type: { length: [[{ toString: '' }]] } }, id: '' });
    const frame = await c.next((f) => f.type === 'error');
    expect(frame.errors[0]).not.toMatch(/internal error/);
    expect(frame.errors[0]).toContain('"args.type"');
  });

  it('a malformed HEAD request is answered with headers only', async () => {
    const c = await rawConnect(s.http, 'HEAD /hook/caf\xe9? HTTP/1.1\r\nHost: x\r\n\r\n');
    const raw = await c.closed;
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });
});
