// Every route's real answers, checked against the published /openapi.json: each call's status must
// be one the document lists for that operation, its content type one of that answer's, and its body
// valid against that answer's schema (ajv, draft 2020-12 as in OpenAPI 3.1). An answer the document
// does not describe fails here.
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SCRIPT = `import { hook } from 'pipit';
hook('WebhookEvent', { hook: 'json' }, (event) => ({ method: event.method, data: event.data }));
hook('WebhookEvent', { hook: 'text' }, () => 'plain words');
hook('WebhookEvent', { hook: 'nothing' }, () => undefined);
hook('WebhookEvent', { hook: 'broken' }, () => { throw new Error('internals'); });
`;

const USER = { username: 'ada', password: 'correct horse battery' };

let t: TestApp;
let bare: TestApp; // no user yet
let doc: Json;
let ajv: Ajv2020;
let token = '';
const bearer = () => ({ authorization: `Bearer ${token}` });

/** An ajv that resolves the document's `#/components/...` references. */
function ajvFor(document: Json): Ajv2020 {
  const out = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: true });
  addFormats(out);
  out.addSchema({ $id: 'pipit:openapi', components: document.components });
  return out;
}

const inDocument = (schema: unknown): Json =>
  JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/', '"pipit:openapi#/components/'),
  ) as Json;

/**
 * What is wrong with an answer according to the document (empty when nothing): the operation
 * `method template` must list its status (or a `default`), with its content type, and the body
 * must fit that answer's schema.
 */
function problems(
  document: Json,
  method: string,
  template: string,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): string[] {
  const operation = document.paths[template]?.[method.toLowerCase()] as Json | undefined;
  if (!operation) return [`${method} ${template} is not in the document`];
  let answer = (operation.responses[String(res.statusCode)] ?? operation.responses.default) as
    Json | undefined;
  if (!answer) return [`${method} ${template} does not list status ${res.statusCode}`];
  if (answer.$ref) answer = document.components.responses[String(answer.$ref).split('/').pop()!];
  const content = answer!.content as Json | undefined;
  if (!content)
    return res.body === '' ? [] : [`${res.statusCode} has no body in the document: ${res.body}`];
  const contentType = res.headers['content-type'];
  const type = (typeof contentType === 'string' ? contentType : '').split(';')[0]!.trim();
  const media = (content[type] ?? content['*/*']) as Json | undefined;
  if (!media) return [`${res.statusCode} is not documented as ${type}`];
  const body: unknown = type.endsWith('json') ? JSON.parse(res.body) : res.body;
  const validate = ajv.compile(inDocument(media.schema ?? {}));
  return validate(body) ? [] : [JSON.stringify(validate.errors), res.body.slice(0, 500)];
}

const seen = new Set<string>();

/** Calls a route and checks its answer against the document; returns the answer. */
async function call(
  app: TestApp,
  template: string,
  opts: InjectOptions & { method: string; url: string },
): Promise<LightMyRequestResponse> {
  const res = await app.app.inject(opts);
  seen.add(`${opts.method} ${template}`);
  expect(
    problems(doc, opts.method, template, res),
    `${opts.method} ${opts.url} → ${res.statusCode}`,
  ).toEqual([]);
  return res;
}

const json = (payload: unknown) => ({
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(payload),
});
const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

beforeAll(async () => {
  t = await makeApp('', { scripts: { 'hooks.mjs': SCRIPT } });
  bare = await makeApp('');
  const reg = await t.app.inject({ method: 'POST', url: '/register', ...json(USER) });
  expect(reg.statusCode).toBe(201);
  const auth = await t.app.inject({ method: 'POST', url: '/auth', ...json(USER) });
  token = auth.json<{ token: string }>().token;
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: bearer() });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  ajv = ajvFor(doc);
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
});

describe('the answers of every route, against /openapi.json', () => {
  it('the checker refuses what the document does not describe', () => {
    const ok = { statusCode: 200, headers: { 'content-type': 'application/json' } };
    const tokens = { tokens: [] };
    expect(problems(doc, 'GET', '/tokens', { ...ok, body: JSON.stringify(tokens) })).toEqual([]);
    // A field the document does not have, a wrong type, a status it does not list, another type.
    expect(problems(doc, 'GET', '/tokens', { ...ok, body: '{"tokens":[],"extra":1}' })).not.toEqual(
      [],
    );
    expect(problems(doc, 'GET', '/tokens', { ...ok, body: '{"tokens":{}}' })).not.toEqual([]);
    expect(
      problems(doc, 'GET', '/tokens', { ...ok, statusCode: 418, body: '{"tokens":[]}' }),
    ).not.toEqual([]);
    expect(
      problems(doc, 'GET', '/tokens', {
        ...ok,
        headers: { 'content-type': 'text/html' },
        body: '<p>',
      }),
    ).not.toEqual([]);
    expect(problems(doc, 'GET', '/nowhere', { ...ok, body: '{}' })).not.toEqual([]);
  });

  it('no user yet: status, 412s, registration (form: 302)', async () => {
    await call(bare, '/auth/status', { method: 'GET', url: '/auth/status' });
    for (const [method, template] of [
      ['GET', '/tokens'],
      ['GET', '/metrics'],
      ['GET', '/openapi.json'],
      ['POST', '/reload'],
    ] as const)
      expect((await call(bare, template, { method, url: template })).statusCode).toBe(412);
    expect(
      (await call(bare, '/auth', { method: 'POST', url: '/auth', ...json(USER) })).statusCode,
    ).toBe(412);
    expect(
      (await call(bare, '/execute', { method: 'POST', url: '/execute', ...json({}) })).statusCode,
    ).toBe(412);
    const crossSite = await call(bare, '/register', {
      method: 'POST',
      url: '/register',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: JSON.stringify(USER),
    });
    expect(crossSite.statusCode).toBe(403);
    const bad = await call(bare, '/register', {
      method: 'POST',
      url: '/register',
      ...json({ username: '', password: 'x', extra: 1 }),
    });
    expect(bad.statusCode).toBe(400);
    const differ = await call(bare, '/register', {
      method: 'POST',
      url: '/register',
      ...json({ ...USER, confirm_password: 'other' }),
    });
    expect(differ.statusCode).toBe(400);
    const redirected = await call(bare, '/register', {
      method: 'POST',
      url: '/register?redirect=%2Fsettings',
      ...form(USER),
    });
    expect(redirected.statusCode).toBe(302);
    const again = await call(bare, '/register', {
      method: 'POST',
      url: '/register',
      ...json(USER),
    });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('auth: token, login (JSON and form), logout, status with a session', async () => {
    expect(
      (await call(t, '/auth', { method: 'POST', url: '/auth', ...json(USER) })).statusCode,
    ).toBe(200);
    const named = { ...USER, name: 'ci', expiry_days: 30 };
    expect(
      (await call(t, '/auth', { method: 'POST', url: '/auth', ...json(named) })).statusCode,
    ).toBe(200);
    const wrong = { ...USER, password: 'wrong password' };
    expect(
      (await call(t, '/auth', { method: 'POST', url: '/auth', ...json(wrong) })).statusCode,
    ).toBe(401);
    expect(
      (await call(t, '/auth', { method: 'POST', url: '/auth', ...json({ username: 'ada' }) }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call(t, '/auth', {
          method: 'POST',
          url: '/auth',
          headers: { 'content-type': 'text/plain' },
          payload: 'x',
        })
      ).statusCode,
    ).toBe(415);

    const login = await call(t, '/login', { method: 'POST', url: '/login', ...json(USER) });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const csrf = login.json<{ csrf_token: string }>().csrf_token;
    expect(
      (await call(t, '/login', { method: 'POST', url: '/login', ...form(USER) })).statusCode,
    ).toBe(302);
    expect(
      (
        await call(t, '/login', {
          method: 'POST',
          url: '/login',
          ...json({ username: 'ada', password: '' }),
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call(t, '/login', {
          method: 'POST',
          url: '/login',
          ...json({ username: 'bob', password: 'nope nope' }),
        })
      ).statusCode,
    ).toBe(401);

    const status = await call(t, '/auth/status', {
      method: 'GET',
      url: '/auth/status',
      headers: { cookie },
    });
    expect(status.json()).toMatchObject({ user: { username: 'ada' } });
    // A session without its CSRF header may not log out; with it, it may.
    expect(
      (await call(t, '/logout', { method: 'POST', url: '/logout', headers: { cookie } }))
        .statusCode,
    ).toBe(403);
    const out = await call(t, '/logout', {
      method: 'POST',
      url: '/logout',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(200);
    expect(
      (await call(t, '/logout', { method: 'POST', url: '/logout', headers: { cookie } }))
        .statusCode,
    ).toBe(401);
    expect((await call(t, '/logout', { method: 'POST', url: '/logout' })).statusCode).toBe(200);
  });

  it('tokens: list, create, revoke, and their errors', async () => {
    expect(
      (await call(t, '/tokens', { method: 'GET', url: '/tokens', headers: bearer() })).statusCode,
    ).toBe(200);
    expect((await call(t, '/tokens', { method: 'GET', url: '/tokens' })).statusCode).toBe(401);
    const create = (payload: unknown) =>
      call(t, '/tokens', {
        method: 'POST',
        url: '/tokens',
        headers: { ...bearer(), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const made = await create({ password: USER.password, name: 'phone', expiry_days: null });
    expect(made.statusCode).toBe(201);
    expect((await create({ password: 'wrong password' })).statusCode).toBe(403);
    expect((await create({ name: 'no password' })).statusCode).toBe(400);
    expect(
      (await call(t, '/tokens', { method: 'POST', url: '/tokens', ...json({ password: 'x' }) }))
        .statusCode,
    ).toBe(401);
    const id = made.json<{ id: string }>().id;
    const revoke = (which: string) =>
      call(t, '/tokens/{id}', { method: 'DELETE', url: `/tokens/${which}`, headers: bearer() });
    expect((await revoke(id)).statusCode).toBe(200);
    expect((await revoke(id)).statusCode).toBe(404);
    expect(
      (await call(t, '/tokens/{id}', { method: 'DELETE', url: `/tokens/${id}` })).statusCode,
    ).toBe(401);
  });

  it('execute: output, failed action, bad request, unknown action, no credentials', async () => {
    const execute = (payload: unknown, headers: Record<string, string> = bearer()) =>
      call(t, '/execute', {
        method: 'POST',
        url: '/execute',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    expect(
      (await execute({ type: 'request', action: 'utils.echo', args: { a: 1 } })).statusCode,
    ).toBe(200);
    const failed = await execute({ type: 'request', action: 'variable.get', args: {} });
    expect(failed.statusCode).toBe(400);
    expect((await execute({ type: 'request', action: 'utils.nope' })).statusCode).toBe(404);
    expect((await execute({ type: 'nope' })).statusCode).toBe(400);
    expect((await execute({ type: 'request', action: 'utils.echo' }, {})).statusCode).toBe(401);
  });

  it('operations: health, readiness, metrics, this document, reload', async () => {
    expect((await call(t, '/healthz', { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await call(t, '/readyz', { method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(
      (await call(t, '/metrics', { method: 'GET', url: '/metrics', headers: bearer() })).statusCode,
    ).toBe(200);
    expect((await call(t, '/metrics', { method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await call(t, '/openapi.json', { method: 'GET', url: '/openapi.json', headers: bearer() }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t, '/openapi.json', { method: 'GET', url: '/openapi.json' })).statusCode,
    ).toBe(401);
    expect(
      (await call(t, '/reload', { method: 'POST', url: '/reload', headers: bearer() })).statusCode,
    ).toBe(200);
    expect((await call(t, '/reload', { method: 'POST', url: '/reload' })).statusCode).toBe(401);
    const config = readFileSync(t.configPath, 'utf8');
    try {
      writeFileSync(t.configPath, `${config}\nnot: [valid yaml\n`);
      expect(
        (await call(t, '/reload', { method: 'POST', url: '/reload', headers: bearer() }))
          .statusCode,
      ).toBe(400);
    } finally {
      writeFileSync(t.configPath, config);
    }
  });

  it('web hooks: JSON, text, nothing, failing listener, no listener, bad name', async () => {
    const hook = (
      method: string,
      name: string,
      extra: { headers?: Record<string, string>; payload?: string } = {},
    ) => call(t, '/hook/{name}', { method, url: `/hook/${name}`, ...extra });
    expect((await hook('POST', 'json', json({ door: 'front' }))).statusCode).toBe(200);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'])
      expect((await hook(method, 'json')).statusCode).toBe(200);
    expect((await hook('GET', 'text')).headers['content-type']).toMatch(/^text\/plain/);
    expect((await hook('GET', 'nothing')).statusCode).toBe(204);
    expect((await hook('GET', 'broken')).statusCode).toBe(500);
    expect((await hook('GET', 'nobody')).statusCode).toBe(404);
    expect((await hook('GET', 'bad%20name!')).statusCode).toBe(400);
  });

  it('called every operation the document lists', () => {
    const listed = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.keys(item as Json).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect([...seen].sort()).toEqual(listed.sort());
  });
});
