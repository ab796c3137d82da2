import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

// Fastify loads Ajv (~90 modules, with its JTD vocabulary) and fast-json-stringify when an app is
// built, to compile route schemas — and Pipit's routes have none of those: their schemas are zod,
// compiled by the app's own compilers (wire/compilers.ts).
// These factories load them the first time a schema is compiled instead, from fastify's own
// dependencies: a start-up is ~0.1 s shorter and a few MB smaller. Fastify then counts the
// compilers as custom, which only means it does not lower-case the keys of a `headers` schema.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type Factory = (...args: unknown[]) => unknown;

// The package's selector, called once (it keeps a compiler per set of shared schemas).
function lazy(name: string): Factory {
  let factory: Factory | undefined;
  return (...args) => (factory ??= (fromFastify(name) as () => Factory)())(...args);
}

/**
 * Fastify's `schemaController` option with the default compilers, loaded on first use.
 *
 * @example
 * const app = Fastify({ schemaController: lazySchemaCompilers() });
 */
export function lazySchemaCompilers(): SchemaController {
  return {
    compilersFactory: {
      buildValidator: lazy('@fastify/ajv-compiler'),
      buildSerializer: lazy('@fastify/fast-json-stringify-compiler'),
    } as SchemaController['compilersFactory'],
  };
}
