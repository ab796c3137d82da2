import type { Registry } from '../../core/registry.ts';
import { catalogSchemas } from './catalog-schemas.ts';
import { errorResponses } from './error-responses.ts';
import { API_TAGS, apiInfo } from './info.ts';
import { authPaths } from './paths-auth.ts';
import { executePaths } from './paths-execute.ts';
import { hookPaths } from './paths-hook.ts';
import { operationPaths } from './paths-operations.ts';
import { tokenPaths } from './paths-tokens.ts';
import { routeSchemas } from './route-schemas.ts';
import { securitySchemes } from './security.ts';
import type { OpenApiDocument } from './types.ts';
import { wireSchemas } from './wire-schemas.ts';

/**
 * The OpenAPI 3.1 document of the HTTP API, from the registry as it is now: the routes, the wire
 * messages, and one request body per action and procedure (their argument schemas are the
 * catalog's). Pure: it reads the registry and builds a new object every call (see
 * `openApiJson` in cache.ts for the cached JSON).
 *
 * @example
 * const doc = buildOpenApiDocument(service.registry);
 * doc.components.schemas['Args.utils.sleep'];
 */
export function buildOpenApiDocument(registry: Registry): OpenApiDocument {
  const catalog = catalogSchemas(registry);
  return {
    openapi: '3.1.0',
    info: apiInfo(),
    tags: API_TAGS,
    paths: {
      ...executePaths(),
      ...authPaths(),
      ...tokenPaths(),
      ...hookPaths(),
      ...operationPaths(),
    },
    components: {
      schemas: {
        ...wireSchemas(),
        ...routeSchemas(),
        ActionRequest: catalog.actionRequest,
        ...catalog.schemas,
      },
      responses: errorResponses(),
      securitySchemes: securitySchemes(),
    },
  };
}
