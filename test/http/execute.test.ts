import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

describe('POST /execute', () => {
  let t: TestApp;
  let token: string;
  const exec = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  beforeAll(async () => {
    t = await makeApp();
    token = await registerAndToken(t.app);
  });
  afterAll(() => t.close());

  it('runs an action and answers with the response message', async () => {
    const res = await exec({
      type: 'request',
      action: 'utils.echo',
      args: { text: 'hi', n: 2 },
      id: 'abc',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: 'abc',
      type: 'response',
      target: 'http',
      origin: 'test-host',
      response: { output: { text: 'hi', n: 2 }, errors: [] },
    });
    expect(typeof body._timestamp).toBe('number');
    expect(Math.abs(body._timestamp - Date.now() / 1000)).toBeLessThan(5);
    expect(body._timestamp % 1).not.toBe(0);
  });

  it('gives a new hex id when the request has none, and {success: true} for no output', async () => {
    const res = await exec({ type: 'request', action: 'utils.sleep', args: { seconds: '0' } });
    const body = res.json();
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.response).toEqual({ output: { success: true }, errors: [] });
  });

  it('coerces numeric strings but names the argument when the value is not a number', async () => {
    const res = await exec({ type: 'request', action: 'utils.sleep', args: { seconds: 'soon' } });
    expect(res.statusCode).toBe(400);
    const [msg] = res.json().response.errors;
    expect(msg).toContain('utils.sleep');
    expect(msg).toContain('"seconds"');
    expect(msg).toContain('"soon"');
    expect(msg).toMatch(/number/);
  });

  it('rejects undeclared arguments and lists the accepted ones', async () => {
    const res = await exec({
      type: 'request',
      action: 'utils.sleep',
      args: { seconds: 0, sconds: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors[0]).toMatch(/unknown argument "sconds"; it takes seconds/);
  });

  it.each([
    ['malformed JSON', '{"type": "request",', 400, /malformed JSON/],
    ['a JSON array', '[1,2]', 400, /JSON object/],
    ['missing action', { type: 'request' }, 400, /"action"/],
    ['wrong type', { type: 'event', action: 'utils.echo' }, 400, /"type" must be "request"/],
    [
      'args not an object',
      { type: 'request', action: 'utils.echo', args: [1] },
      400,
      /"args" must be an object/,
    ],
    ['unknown plugin', { type: 'request', action: 'nope.echo' }, 404, /no plugin "nope"/],
    [
      'unknown action',
      { type: 'request', action: 'utils.ech' },
      404,
      /no action "ech". Did you mean "echo"/,
    ],
    [
      'unknown procedure',
      { type: 'request', action: 'procedure.nope' },
      404,
      /no procedure named "nope"/,
    ],
    [
      'another instance',
      { type: 'request', action: 'utils.echo', target: 'elsewhere' },
      404,
      /no instance named "elsewhere"/,
    ],
  ])('answers %s with a JSON error', async (_name, payload, status, pattern) => {
    const res = await exec(payload);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json();
    expect(body.type).toBe('response');
    expect(body.response.errors.join(' ')).toMatch(pattern);
  });

  it("reads a token caller's body as JSON whatever its type, and refuses one that is not JSON", async () => {
    const res = await exec('action=utils.echo', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors[0]).toMatch(/malformed JSON/);
  });

  it('refuses an oversized body with 413', async () => {
    const big = { type: 'request', action: 'utils.echo', args: { blob: 'x'.repeat(1_100_000) } };
    const res = await exec(big);
    expect(res.statusCode).toBe(413);
    expect(res.json().response.errors[0]).toMatch(/larger than 1048576 bytes/);
  });

  it('reports an action failure as 200 with errors', async () => {
    const res = await exec({
      type: 'request',
      action: 'inspect.get_plugin',
      args: { name: 'nope' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().response).toEqual({
      output: { success: false },
      errors: ['inspect.get_plugin: no enabled plugin named "nope"'],
    });
  });

  it.each([
    ['no header', {}, /authentication required/],
    ['a garbled token', { authorization: 'Bearer not.a.jwt' }, /not valid/],
    ['another scheme', { authorization: 'Digest username="ada"' }, /must be "Bearer <token>"/],
    ['a wrong Basic password', { authorization: 'Basic YWRhOnB3' }, /wrong user name or password/],
  ])('answers 401 for %s', async (_name, headers, pattern) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { 'content-type': 'application/json', ...headers },
      payload: { type: 'request', action: 'utils.echo' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/Bearer/);
    expect(res.json().response.errors[0]).toMatch(pattern);
  });

  it('accepts the Platypush X-Token header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { 'x-token': token },
      payload: { type: 'request', action: 'utils.echo', args: { a: 1 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().response.output).toEqual({ a: 1 });
  });
});
