import type { CatalogAction, ProcedureEntry, Registry } from '../../core/registry.ts';
import { embedSchema } from './embed-schema.ts';
import { componentKey, schemaRef } from './names.ts';
import type { JsonSchema } from './types.ts';

/** The schemas of what the registry can run, and the request bodies that call them. */
export interface CatalogSchemas {
  /** `Args.<name>`, `Result.<name>` (actions that declare one), `Request.<name>`, their `$defs`. */
  schemas: Record<string, JsonSchema>;
  /** `ActionRequest`: one of the `Request.<name>` bodies, told apart by their `action`. */
  actionRequest: JsonSchema;
}

interface Callable {
  /** Canonical name: `<plugin>.<action>` or `procedure.<name>`. */
  name: string;
  /** Every name a request may give it (plugin aliases too). */
  names: string[];
  summary: string;
  args: JsonSchema;
  result?: JsonSchema;
}

const describe = (a: CatalogAction): string =>
  [a.summary, a.description, a.extraArgs ? 'Takes extra keyword arguments too.' : undefined]
    .filter(Boolean)
    .join(' ');

function actionCallables(registry: Registry): Callable[] {
  return registry.catalog().flatMap((plugin) =>
    plugin.actions.map((action) => {
      const local = action.name.slice(plugin.name.length);
      return {
        name: action.name,
        names: [action.name, ...plugin.aliases.map((alias) => `${alias}${local}`)],
        summary: describe(action),
        args: action.params,
        ...(action.result ? { result: action.result } : {}),
      };
    }),
  );
}

// A procedure declares argument names, not types: any value goes, undeclared ones too (as in
// Platypush); the declared ones without a default are required.
function procedureArgs(p: ProcedureEntry): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      p.params.map((param) => [
        param,
        { description: `argument "${param}" of procedure.${p.name}` },
      ]),
    ),
    ...(p.required?.length ? { required: [...p.required] } : {}),
    additionalProperties: true,
  };
}

function procedureCallables(registry: Registry): Callable[] {
  return [...registry.procedures.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => ({
      name: `procedure.${p.name}`,
      names: [`procedure.${p.name}`],
      summary: p.summary,
      args: procedureArgs(p),
    }));
}

/**
 * The per-action and per-procedure schemas of the document, from the registry as it is now: each
 * action's arguments are the catalog's JSON Schema (the same zod definitions `inspect` and the UI
 * show), each procedure's its declared parameters. `ActionRequest` is the `oneOf` of the request
 * bodies, with a discriminator on `action`, so a body validates only against the action it names.
 *
 * @example
 * const { schemas, actionRequest } = catalogSchemas(service.registry);
 * schemas['Args.utils.sleep'].properties.seconds; // { type: 'number', minimum: 0, ... }
 */
export function catalogSchemas(registry: Registry): CatalogSchemas {
  const schemas: Record<string, JsonSchema> = {};
  const mapping: Record<string, string> = {};
  const branches: JsonSchema[] = [];
  for (const c of [...actionCallables(registry), ...procedureCallables(registry)]) {
    const names = c.names.filter((n) => !(n in mapping));
    if (!names.length) continue;
    const argsKey = componentKey('Args', c.name);
    const args = embedSchema(c.args, argsKey);
    Object.assign(schemas, args.defs);
    schemas[argsKey] = { ...args.schema, title: `${c.name} arguments`, description: c.summary };
    if (c.result) {
      const resultKey = componentKey('Result', c.name);
      const result = embedSchema(c.result, resultKey);
      Object.assign(schemas, result.defs);
      schemas[resultKey] = { ...result.schema, title: `${c.name} output` };
    }
    const requestKey = componentKey('Request', c.name);
    const argsRequired = Array.isArray(args.schema.required) && args.schema.required.length > 0;
    schemas[requestKey] = {
      ...schemaRef('ExecuteRequest'),
      type: 'object',
      title: c.name,
      description: c.summary,
      properties: {
        action: names.length === 1 ? { const: names[0] } : { enum: names },
        args: schemaRef(argsKey),
      },
      ...(argsRequired ? { required: ['args'] } : {}),
    };
    for (const n of names) mapping[n] = `#/components/schemas/${requestKey}`;
    branches.push(schemaRef(requestKey));
  }
  const actionRequest: JsonSchema = {
    title: 'Request message for one action or procedure',
    description:
      'A request message (ExecuteRequest) whose `action` names one of the actions or procedures ' +
      'this instance has now, with the arguments that one takes.',
    // Never empty in practice (core plugins are always on), but `oneOf: []` would be invalid.
    ...(branches.length
      ? { oneOf: branches, discriminator: { propertyName: 'action', mapping } }
      : schemaRef('ExecuteRequest')),
  };
  return { schemas, actionRequest };
}
