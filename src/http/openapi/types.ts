/**
 * A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object.
 *
 * @example
 * const schema: JsonSchema = { type: 'object', properties: { text: { type: 'string' } } };
 */
export type JsonSchema = Record<string, unknown>;

/**
 * An OpenAPI operation, path item, response or other object of the document, kept loose: the
 * document is checked against the OpenAPI 3.1 schema by the tests, not by the type system.
 *
 * @example
 * const op: OpenApiObject = { operationId: 'healthz', responses: { '200': { description: 'ok' } } };
 */
export type OpenApiObject = Record<string, unknown>;

/**
 * A security requirement: scheme names (all needed together) → scopes (always none here).
 *
 * @example
 * const sessionWithCsrf: SecurityRequirement = { sessionCookie: [], csrfToken: [] };
 */
export type SecurityRequirement = Record<string, string[]>;

/**
 * The OpenAPI 3.1 document that `GET /openapi.json` serves.
 *
 * @example
 * const doc: OpenApiDocument = withCatalog(app.swagger() as OpenApiDocument, service.registry);
 * doc.paths['/execute']?.post;
 */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiObject;
  tags: OpenApiObject[];
  paths: Record<string, Record<string, OpenApiObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiObject>;
    securitySchemes: Record<string, OpenApiObject>;
  };
}
