import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../core/registry.ts';
import { withCatalog } from './document.ts';
import type { OpenApiDocument } from './types.ts';

interface Cached {
  /** The plugin instances and procedure entries the document was made from, in order. */
  parts: unknown[];
  json: string;
}

const cache = new WeakMap<Registry, Cached>();

// What the document depends on besides the routes (fixed once the app is built, and cached by
// @fastify/swagger): the enabled plugins (their compiled actions are fixed once added) and the
// procedures (a reload replaces every entry). Comparing these by identity is a few dozen pointer
// comparisons, far cheaper than building and serialising the document.
function partsOf(registry: Registry): unknown[] {
  return [...registry.plugins.values(), null, ...registry.procedures.values()];
}

function same(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The OpenAPI document of an app and its registry as JSON text, built on the first call and again
 * only after the registry changed (a plugin added, procedures replaced by a reload).
 *
 * @example
 * reply.type('application/json').send(openApiJson(app, service.registry));
 */
export function openApiJson(app: FastifyInstance, registry: Registry): string {
  const parts = partsOf(registry);
  const hit = cache.get(registry);
  if (hit && same(hit.parts, parts)) return hit.json;
  const routes = app.swagger() as unknown as OpenApiDocument;
  const json = JSON.stringify(withCatalog(routes, registry));
  cache.set(registry, { parts, json });
  return json;
}
