// GET /openapi.json, the OpenAPI 3.1 description of the HTTP API,
// generated from the live registry. Checked with a real OpenAPI 3.1 validator, and by validating
// real /execute requests and responses against it with ajv (draft 2020-12, the dialect of 3.1).
import { appendFileSync, readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodSchema } from '../../src/http/openapi/embed-schema.ts';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PROCEDURES = `procedure.greet(name, greeting="hello"):
  - return: \${greeting + ", " + name}
`;

let t: TestApp;
let token: string;
let doc: Json;
const auth = () => ({ authorization: `Bearer ${token}` });
const getDoc = () => t.app.inject({ method: 'GET', url: '/openapi.json', headers: auth() });
const execute = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/execute',
    headers: { ...auth(), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

/** An ajv that knows the document's components, as `$ref`s from inside the document resolve. */
function ajvFor(document: Json): {
  ajv: Ajv2020;
  compile: (pointer: string) => ValidateFunction;
} {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  // Pipit's marks of secret parameters and of URLs whose user info is masked in the history, and
  // OpenAPI's own keywords: annotations for ajv.
  ajv.addVocabulary(['secret', 'secretUserinfo', 'discriminator', 'components']);
  ajv.addSchema({ $id: 'pipit:openapi', components: document.components });
  return { ajv, compile: (pointer) => ajv.compile({ $ref: `pipit:openapi#${pointer}` }) };
}

/** The schema of a response of an operation, following a `$ref` to components.responses. */
function responseSchemaPointer(document: Json, path: string, status: string): string {
  let response = document.paths[path].post.responses[status];
  if (response.$ref) response = document.components.responses[response.$ref.split('/').pop()];
  const ref: string = response.content['application/json'].schema.$ref;
  return ref.slice(1);
}

const errorsOf = (validate: ValidateFunction) => JSON.stringify(validate.errors, null, 1);

beforeAll(async () => {
  t = await makeApp(PROCEDURES);
  token = await registerAndToken(t.app);
  const res = await getDoc();
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

describe('GET /openapi.json', () => {
  it('is served as JSON to an authenticated caller only, like the catalog', async () => {
    const res = await getDoc();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const anonymous = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ type: 'response', response: { errors: [/token/] } });
    const other = await makeApp();
    try {
      expect((await other.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(
        412,
      );
    } finally {
      await other.close();
    }
  });

  it('is a valid OpenAPI 3.1 document (and the validator does reject a broken one)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors, JSON.stringify(result.errors, null, 1)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');

    const broken = structuredClone(doc);
    broken.paths['/execute'].post.responses = { ok: { description: 'not a status' } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has component schemas that are all valid JSON Schema 2020-12 and compile', () => {
    const { ajv, compile } = ajvFor(doc);
    for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
      expect(ajv.validateSchema(schema as Json), `${name}: ${JSON.stringify(ajv.errors)}`).toBe(
        true,
      );
      expect(() => compile(`/components/schemas/${name}`), name).not.toThrow();
    }
  });

  it('describes every route: execute, auth, tokens, hook, health, metrics, itself', async () => {
    const routes = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.keys(item as Json).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'POST /execute',
        'POST /auth',
        'GET /auth/status',
        'POST /register',
        'POST /login',
        'POST /logout',
        'GET /tokens',
        'POST /tokens',
        'DELETE /tokens/{id}',
        'POST /reload',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
        'GET /openapi.json',
        ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => `${m} /hook/{name}`),
      ].sort(),
    );
    // ...and each of those routes exists on the server (none answers "no route").
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace('{id}', 'nope').replace('{name}', 'nobody');
      const res = await t.app.inject({ method: method as 'GET', url });
      expect(res.body, route).not.toMatch(/no route/);
    }
  });

  it('documents the security schemes: bearer JWT, X-Token, Basic, session cookie + CSRF', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      xToken: { type: 'apiKey', in: 'header', name: 'X-Token' },
      basicAuth: { type: 'http', scheme: 'basic' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session_token' },
      csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
    });
    const execute = doc.paths['/execute'].post;
    expect(execute.security).toContainEqual({ bearerAuth: [] });
    expect(execute.security).toContainEqual({ sessionCookie: [], csrfToken: [] });
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/hook/{name}'].post.security).toEqual([]);
  });

  it('gives /execute every error status, with the response message as body', () => {
    const responses = doc.paths['/execute'].post.responses;
    for (const status of ['200', '400', '401', '403', '404', '412', '413', '415', '429', '500'])
      expect(responses, status).toHaveProperty(status);
    expect(doc.components.responses.Error404.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ResponseMessage',
    });
    expect(doc.components.responses.Error429.headers).toHaveProperty('Retry-After');
  });

  it('has every catalog action with its args schema, from the same zod definitions', () => {
    const schemas = doc.components.schemas;
    const mapping = schemas.ActionRequest.discriminator.mapping;
    const catalog = t.service.registry.catalog();
    expect(catalog.length).toBeGreaterThan(3);
    for (const plugin of catalog) {
      for (const action of plugin.actions) {
        const args = schemas[`Args.${action.name}`];
        expect(args, action.name).toBeDefined();
        const { $schema: _, ...params } = action.params;
        // The catalog's schema, plus the password marks on secret parameters.
        expect(args, action.name).toMatchObject(params);
        expect(mapping[action.name]).toBe(`#/components/schemas/Request.${action.name}`);
        expect(schemas.ActionRequest.oneOf).toContainEqual({
          $ref: `#/components/schemas/Request.${action.name}`,
        });
        if (action.result) expect(schemas[`Result.${action.name}`]).toBeDefined();
      }
    }
    expect(schemas['Args.utils.echo'].description).toMatch(/Returns the arguments/);
    expect(schemas['Args.utils.sleep']).toMatchObject({
      properties: { seconds: { type: 'number', minimum: 0, maximum: 3600 } },
      required: ['seconds'],
    });
    // An action with a required argument needs `args` in its request body.
    expect(schemas['Request.utils.sleep'].required).toEqual(['args']);
    expect(schemas['Request.utils.echo'].required).toBeUndefined();
  });

  it('shows secret parameters as secret, write-only passwords', () => {
    const password = doc.components.schemas['Args.mqtt.publish'].properties.password;
    expect(password).toMatchObject({
      type: 'string',
      secret: true,
      writeOnly: true,
      format: 'password',
    });
    expect(doc.components.schemas.AuthBody.properties.password).toMatchObject({
      format: 'password',
      writeOnly: true,
    });
  });

  it('describes the bodies the routes check, from the same zod schemas, and checks them after credentials', async () => {
    const body = (path: string) =>
      doc.paths[path].post.requestBody.content['application/json'].schema as Json;
    expect(body('/tokens')).toEqual({ $ref: '#/components/schemas/CreateTokenBody' });
    expect(body('/auth')).toEqual({ $ref: '#/components/schemas/AuthBody' });
    expect(doc.paths['/login'].post.requestBody.content).toHaveProperty(
      'application/x-www-form-urlencoded',
    );
    expect(doc.components.schemas.CreateTokenBody).toMatchObject({
      properties: { password: { writeOnly: true, format: 'password' } },
      required: ['password'],
    });
    expect(doc.paths['/hook/{name}'].post.requestBody.required).toBe(false);
    // The schema checks the body, with Pipit's message naming each field...
    const bad = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ password: '', name: 5 }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().response.errors).toEqual([
      'field "password": re-enter your password',
      'field "name": Invalid input: expected string, received number',
    ]);
    // ...but only once the caller is known: without credentials, 401 and nothing about the body.
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ password: '' }),
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('has the YAML procedure with its declared params, the ones without default required', () => {
    expect(doc.components.schemas['Args.procedure.greet']).toMatchObject({
      type: 'object',
      properties: { name: {}, greeting: {} },
      required: ['name'],
      additionalProperties: true,
    });
    expect(doc.components.schemas.ActionRequest.discriminator.mapping['procedure.greet']).toBe(
      '#/components/schemas/Request.procedure.greet',
    );
  });

  it('validates real /execute requests and responses: success, procedure, 400, 404', async () => {
    const { compile } = ajvFor(doc);
    const requestBody = doc.paths['/execute'].post.requestBody.content['application/json'].schema;
    const validRequest = compile(requestBody.$ref.slice(1));
    const validOk = compile(responseSchemaPointer(doc, '/execute', '200'));
    const valid404 = compile(responseSchemaPointer(doc, '/execute', '404'));
    const valid400 = compile(responseSchemaPointer(doc, '/execute', '400'));

    for (const body of [
      { type: 'request', action: 'utils.echo', args: { text: 'hi' }, id: 'r1' },
      { type: 'request', action: 'utils.sleep', args: { seconds: 0 } },
      { type: 'request', action: 'procedure.greet', args: { name: 'Ada' } },
    ]) {
      expect(validRequest(body), errorsOf(validRequest)).toBe(true);
      const res = await execute(body);
      expect(res.statusCode).toBe(200);
      expect(validOk(res.json()), errorsOf(validOk)).toBe(true);
    }
    expect(
      (await execute({ type: 'request', action: 'procedure.greet', args: { name: 'Ada' } })).json()
        .response.output,
    ).toBe('hello, Ada');

    // What the server refuses, the document refuses too.
    const unknown = { type: 'request', action: 'utils.nope', args: {} };
    expect(validRequest(unknown)).toBe(false);
    const notFound = await execute(unknown);
    expect(notFound.statusCode).toBe(404);
    expect(valid404(notFound.json()), errorsOf(valid404)).toBe(true);

    const misspelt = { type: 'request', action: 'utils.sleep', args: { sconds: 1 } };
    expect(validRequest(misspelt)).toBe(false);
    const bad = await execute(misspelt);
    expect(bad.statusCode).toBe(400);
    expect(valid400(bad.json()), errorsOf(valid400)).toBe(true);
    expect(validRequest({ type: 'request', action: 'procedure.greet', args: {} })).toBe(false);
    expect(
      (await execute({ type: 'request', action: 'procedure.greet', args: {} })).statusCode,
    ).toBe(400);
  });

  it('is cached, and follows a reload that changes the procedures', async () => {
    const before = (await getDoc()).body;
    expect((await getDoc()).body).toBe(before);
    expect(before).not.toContain('procedure.added');
    appendFileSync(t.configPath, 'procedure.added(x):\n  - return: ${x}\n');
    const reload = await t.app.inject({ method: 'POST', url: '/reload', headers: auth() });
    expect(reload.statusCode, reload.body).toBe(200);
    const after = JSON.parse((await getDoc()).body) as Json;
    expect(after.components.schemas['Args.procedure.added']).toMatchObject({
      properties: { x: {} },
      required: ['x'],
    });
    expect(after.components.schemas['Args.procedure.greet']).toBeDefined();
    expect(readFileSync(t.configPath, 'utf8')).toContain('procedure.added');
  });
});

describe('embedding a catalog schema in the document', () => {
  it('moves $defs to components and keeps recursive references working', () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const Tree = z.object({
      root: Node,
      other: Node.optional(),
      password: z.string().meta({ secret: true }).optional(),
    });
    const tree = zodSchema(Tree, 'input', 'Args.x.tree');
    const node = zodSchema(Node, 'input', 'Args.x.node');
    expect(JSON.stringify([tree, node])).not.toMatch(/"\$ref":"#(\/\$defs\/[^"]*)?"/);
    expect(tree.schema.properties).toMatchObject({
      password: { secret: true, writeOnly: true, format: 'password' },
    });
    const { compile } = ajvFor({
      components: {
        schemas: { 'Args.x.tree': tree.schema, 'Args.x.node': node.schema, ...tree.defs },
      },
    });
    const validTree = compile('/components/schemas/Args.x.tree');
    const validNode = compile('/components/schemas/Args.x.node');
    const value = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] };
    expect(validNode(value), errorsOf(validNode)).toBe(true);
    expect(validTree({ root: value, other: value }), errorsOf(validTree)).toBe(true);
    expect(validTree({ root: { name: 'a', children: [{ children: [] }] } })).toBe(false);
    expect(validNode({ name: 'a', children: [{ name: 1 }] })).toBe(false);
  });
});
