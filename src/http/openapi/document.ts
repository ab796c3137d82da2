import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Registry } from '../../core/registry.ts';
import { wireRoles } from '../wire/named.ts';
import { catalogSchemas } from './catalog-schemas.ts';
import { errorResponses } from './error-responses.ts';
import { API_TAGS, apiInfo } from './info.ts';
import { responseRef, schemaRef } from './names.ts';
import { securitySchemes } from './security.ts';
import type { JsonSchema, OpenApiDocument, OpenApiObject } from './types.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** Headers of some answers, by status, for the document only (e.g. the session's Set-Cookie). */
    responseHeaders?: Record<number, Record<string, JsonSchema>>;
  }
}

type RouteTransform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type ObjectTransform = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;

// A route's zod schemas as JSON Schema (fastify-type-provider-zod), plus the headers of its answers.
const documentRoute: RouteTransform = (route) => {
  const out = jsonSchemaTransform(route);
  const schema = out.schema as
    (Record<string, unknown> & { response?: Record<string, OpenApiObject> }) | undefined;
  if (!schema) return out;
  const headers = route.schema?.responseHeaders;
  delete schema.responseHeaders;
  for (const [status, h] of Object.entries(headers ?? {}))
    if (schema.response?.[status]) schema.response[status].headers = h;
  return out;
};

// Every `$ref` in a value, rewritten by `rename` (a walk over the JSON: refs are only ever strings).
function renameRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, rename));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = k === '$ref' && typeof v === 'string' ? rename(v) : renameRefs(v, rename);
  return out;
}

// The type provider writes each named schema twice, as `<id>` (output) and `<id>Input` (input),
// and refers to bodies as `<id>Input`: each keeps one component under its own name, the one of
// its role (wire/named.ts), so that the names stay those clients know.
function oneComponentPerSchema(doc: OpenApiObject): OpenApiObject {
  const components = doc.components as { schemas: Record<string, JsonSchema> };
  const schemas = { ...components.schemas };
  const PREFIX = '#/components/schemas/';
  const renamed = new Map<string, string>();
  for (const [id, role] of wireRoles()) {
    if (role === 'input' && schemas[`${id}Input`]) schemas[id] = schemas[`${id}Input`]!;
    delete schemas[`${id}Input`];
    renamed.set(`${PREFIX}${id}Input`, `${PREFIX}${id}`);
  }
  return renameRefs(
    { ...doc, components: { ...components, schemas } },
    (ref) => renamed.get(ref) ?? ref,
  ) as OpenApiObject;
}

// An error answer described as the error table describes its status is a reference to the shared
// `components.responses.Error<status>` (which also has its headers: Retry-After, WWW-Authenticate).
function sharedErrorAnswers(paths: Record<string, Record<string, OpenApiObject>>): void {
  const shared = errorResponses();
  for (const item of Object.values(paths))
    for (const operation of Object.values(item)) {
      const responses = operation.responses as Record<string, OpenApiObject>;
      for (const [status, response] of Object.entries(responses)) {
        const common = shared[`Error${status}`];
        if (common && response.description === common.description)
          responses[status] = responseRef(`Error${status}`);
      }
    }
}

const finishDocument: ObjectTransform = (input) => {
  const doc = oneComponentPerSchema(jsonSchemaTransformObject(input));
  const paths = doc.paths as Record<string, Record<string, OpenApiObject>>;
  sharedErrorAnswers(paths);
  // `/execute` takes one body per action and procedure the registry has now (withCatalog).
  const execute = paths['/execute']?.post;
  if (execute)
    execute.requestBody = {
      required: true,
      content: { 'application/json': { schema: schemaRef('ActionRequest') } },
    };
  // @fastify/swagger marks every body required; a web hook's is optional (a bare POST is fine).
  for (const operation of Object.values(paths['/hook/{name}'] ?? {}))
    if (operation.requestBody) (operation.requestBody as OpenApiObject).required = false;
  const components = doc.components as OpenApiObject;
  return {
    openapi: '3.1.0',
    info: apiInfo(),
    tags: API_TAGS,
    paths,
    components: {
      schemas: components.schemas,
      responses: errorResponses(),
      securitySchemes: components.securitySchemes,
    },
  } as unknown as ReturnType<ObjectTransform>;
};

/**
 * The options of @fastify/swagger for Pipit's routes: every route with tags is described from its
 * zod schemas (wire/*.ts) when `app.swagger()` is first called, never at start-up; the UI's files,
 * the WebSockets and plugins' own routes have none and are left out.
 *
 * @example
 * await app.register(swagger, swaggerOptions());
 */
export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Pipit', version: '' },
      components: { securitySchemes: securitySchemes() as never },
    },
    hideUntagged: true,
    transform: documentRoute,
    transformObject: finishDocument,
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP API: the routes' part (from `app.swagger()`), with one
 * request body per action and procedure the registry has now (their argument schemas are the
 * catalog's). Pure: it builds a new object every call (see `openApiJson` in cache.ts).
 *
 * @example
 * const doc = withCatalog(app.swagger() as OpenApiDocument, service.registry);
 * doc.components.schemas['Args.utils.sleep'];
 */
export function withCatalog(routes: OpenApiDocument, registry: Registry): OpenApiDocument {
  const catalog = catalogSchemas(registry);
  return {
    ...routes,
    components: {
      ...routes.components,
      schemas: {
        ...routes.components.schemas,
        ActionRequest: catalog.actionRequest,
        ...catalog.schemas,
      },
    },
  };
}
