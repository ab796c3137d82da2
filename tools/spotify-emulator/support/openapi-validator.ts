import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Json = Record<string, unknown>;
type Schema = Json;

/** One request/response pair to check. */
export interface Exchange {
  method: string;
  url: URL;
  /** Parsed JSON request body, if one was sent. */
  requestBody?: unknown;
  status: number;
  contentType: string;
  responseText: string;
}

interface Operation {
  method: string;
  template: string;
  regex: RegExp;
  literalLength: number;
  op: Json;
}

/**
 * Fields whose `nullable` the spec forgot although its own prose (or reports of the live API) say
 * they can be `null`. Every other schema is used exactly as published.
 */
const NULLABLE_PATCHES: readonly (readonly [string, string])[] = [
  ['QueueObject', 'currently_playing'], // "Can be `null`."
  ['CurrentlyPlayingContextObject', 'context'], // "Can be `null`."
  ['CurrentlyPlayingContextObject', 'progress_ms'], // "Can be `null`."
  ['CurrentlyPlayingContextObject', 'item'], // "Can be `null`."
  ['CurrentlyPlayingObject', 'context'],
  ['CurrentlyPlayingObject', 'progress_ms'],
  ['CurrentlyPlayingObject', 'item'],
  ['CursorPagingObject', 'next'], // "( `null` if none)"
  ['CursorPagingObject', 'cursors'], // empty recently-played page (web-api#1405)
  ['PlayHistoryObject', 'context'], // ContextObject|null
  ['SimplifiedPlaylistObject', 'description'], // "otherwise `null`"
  ['PrivateUserObject', 'display_name'], // "`null` if not available"
];

/** The standard `{"error": ErrorObject}` envelope (plus the player `reason`). */
const ERROR_ENVELOPE: Schema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['status', 'message'],
      additionalProperties: false,
      properties: {
        status: { type: 'integer', minimum: 400, maximum: 599 },
        message: { type: 'string' },
        reason: { type: 'string' },
      },
    },
  },
};

// OpenAPI 3.0 → JSON Schema: `nullable` becomes a null type/alternative; `discriminator` is
// dropped (each oneOf branch already pins `type` with an enum). `partial` drops `required`, for
// responses projected with `fields=` (they contain only the selected keys by design).
function convert(node: unknown, partial = false): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, partial));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === 'discriminator' || key === 'nullable' || key === 'example' || key.startsWith('x-'))
      continue;
    if (partial && key === 'required' && Array.isArray(value)) continue;
    // A projection may drop `type`, so track/episode branches can no longer be told apart.
    if (partial && key === 'oneOf') {
      out.anyOf = convert(value, partial);
      continue;
    }
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace(/^#\//, partial ? 'spotify-partial.json#/' : 'spotify.json#/');
    else out[key] = convert(value, partial);
  }
  if ((node as Json).nullable === true) {
    if (typeof out.type === 'string' && out.enum === undefined) out.type = [out.type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** Validates exchanges against openapi.yaml and records which operations were seen. */
export class OpenApiValidator {
  readonly #doc: Json;
  readonly #ajv: Ajv;
  readonly #ops: Operation[] = [];
  readonly #cache = new Map<Schema, ValidateFunction>();
  readonly #partialCache = new Map<Schema, ValidateFunction>();
  /** `METHOD /v1/template` → statuses validated. */
  readonly covered = new Map<string, Set<number>>();

  /**
   * @example
   * const validator = new OpenApiValidator("/path/to/openapi.yaml");
   */
  constructor(specFile: URL | string) {
    this.#doc = parse(readFileSync(specFile, 'utf8')) as Json;
    const schemas = (this.#doc.components as Json).schemas as Record<string, Json>;
    for (const [name, prop] of NULLABLE_PATCHES) {
      const target = (schemas[name]!.properties as Record<string, Json>)[prop];
      if (!target) throw new Error(`nullable patch: ${name}.${prop} not in the spec`);
      target.nullable = true;
    }
    this.#ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addFormat('int32', true).addFormat('int64', true);
    this.#ajv.addSchema({ $id: 'spotify.json', components: { schemas: convert(schemas) } });
    this.#ajv.addSchema({
      $id: 'spotify-partial.json',
      components: { schemas: convert(schemas, true) },
    });
    for (const [template, item] of Object.entries(this.#doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) {
        if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
        const regex = new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
        this.#ops.push({
          method: method.toUpperCase(),
          template,
          regex,
          literalLength: template.replace(/\{[^}]+\}/g, '').length,
          op: op,
        });
      }
    }
    // Literal segments win over templates (`/me/tracks` before `/me/{x}` style clashes).
    this.#ops.sort((a, b) => b.literalLength - a.literalLength);
  }

  #resolve(node: Json): Json {
    let current = node;
    while (typeof current.$ref === 'string') {
      const parts = current.$ref.replace(/^#\//, '').split('/');
      current = parts.reduce<Json>((acc, part) => acc[part] as Json, this.#doc);
    }
    return current;
  }

  #check(schema: Schema, value: unknown, where: string, partial = false): string[] {
    const cache = partial ? this.#partialCache : this.#cache;
    let fn = cache.get(schema);
    if (!fn) {
      fn = this.#ajv.compile(convert(schema, partial) as Schema);
      cache.set(schema, fn);
    }
    if (fn(value)) return [];
    return (fn.errors ?? [])
      .slice(0, 8)
      .map(
        (e: ErrorObject) =>
          `${where}${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
  }

  /** The operation for a method + `/v1/...` path; throws when openapi.yaml has none. */
  operation(method: string, pathname: string): Operation & { params: string[] } {
    const path = pathname.replace(/^\/v1(?=\/)/, '');
    for (const op of this.#ops) {
      const m = op.method === method ? op.regex.exec(path) : null;
      if (m) return { ...op, params: m.slice(1) };
    }
    throw new Error(`openapi: no operation ${method} ${pathname} in openapi.yaml`);
  }

  #requestErrors(op: Operation & { params: string[] }, exchange: Exchange): string[] {
    const errors: string[] = [];
    const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const declared = ((op.op.parameters as Json[] | undefined) ?? []).map((p) => this.#resolve(p));
    const known = new Set(declared.map((p) => p.name as string));
    for (const key of exchange.url.searchParams.keys()) {
      if (!known.has(key)) errors.push(`query parameter "${key}" is not declared`);
    }
    for (const param of declared) {
      const name = param.name as string;
      const raw =
        param.in === 'path'
          ? decodeURIComponent(op.params[names.indexOf(name)] ?? '')
          : exchange.url.searchParams.get(name);
      if (raw === null || raw === undefined) {
        if (param.required) errors.push(`required ${String(param.in)} parameter "${name}" missing`);
        continue;
      }
      const schema = param.schema as Json;
      let value: unknown = raw;
      if (schema.type === 'integer' || schema.type === 'number')
        value = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
      if (schema.type === 'boolean') value = raw === 'true' ? true : raw === 'false' ? false : raw;
      if (schema.type === 'array') value = raw.split(',');
      errors.push(...this.#check(schema, value, `parameter ${name}`));
    }
    const body = op.op.requestBody ? this.#resolve(op.op.requestBody as Json) : undefined;
    const bodySchema = (
      (body?.content as Json | undefined)?.['application/json'] as Json | undefined
    )?.schema as Schema | undefined;
    if (exchange.requestBody !== undefined && bodySchema)
      errors.push(...this.#check(bodySchema, exchange.requestBody, 'request body'));
    if (exchange.requestBody === undefined && body?.required) errors.push('request body required');
    return errors;
  }

  #responseErrors(op: Operation, exchange: Exchange): string[] {
    const { status, contentType, responseText } = exchange;
    const responses = op.op.responses as Record<string, Json>;
    const declared = responses[String(status)];
    const isJson = contentType.includes('application/json');
    const parsed = (): unknown => JSON.parse(responseText);
    // The live API's player quirks: 200 + opaque text for 204 commands,
    // 202 on play, 204 from currently-playing when nothing plays.
    if (!declared && status === 200 && responses['204'] && contentType.startsWith('text/plain'))
      return [];
    if (!declared && status === 202 && op.template === '/me/player/play' && responseText === '')
      return [];
    if (
      !declared &&
      status === 204 &&
      op.template === '/me/player/currently-playing' &&
      responseText === ''
    )
      return [];
    // Observed: 429 (and 5xx) sometimes come with an empty body.
    if (responseText === '' && (status === 429 || status >= 500)) return [];
    if (!declared || (status >= 400 && op.template.startsWith('/me/library'))) {
      if (status < 400) return [`status ${status} is not declared`];
      if (contentType.startsWith('text/html') && status >= 500) return [];
      if (!isJson) return [`error ${status} without a JSON body`];
      const errors = this.#check(ERROR_ENVELOPE, parsed(), 'error body');
      const body = parsed() as { error?: { status?: number } };
      if (body.error?.status !== status)
        errors.push(`error.status ${String(body.error?.status)} != HTTP ${status}`);
      return errors;
    }
    const resolved = this.#resolve(declared);
    const schema = (
      (resolved.content as Json | undefined)?.['application/json'] as Json | undefined
    )?.schema as Schema | undefined;
    if (!schema)
      return responseText === ''
        ? []
        : [`status ${status} declares no body but got ${responseText.slice(0, 60)}`];
    if (!isJson) return [`status ${status} expects JSON, got content-type "${contentType}"`];
    return this.#check(schema, parsed(), 'response', exchange.url.searchParams.has('fields'));
  }

  /**
   * Check one exchange. Request-parameter errors are fatal only when the emulator answered 2xx
   * (negative tests send invalid requests on purpose and must get a 4xx).
   * @example
   * validator.validate({ method: 'GET', url, status: 200, contentType, responseText });
   */
  validate(exchange: Exchange): void {
    const op = this.operation(exchange.method, exchange.url.pathname);
    const problems: string[] = [];
    const requestErrors = this.#requestErrors(op, exchange);
    if (exchange.status < 400 && requestErrors.length > 0)
      problems.push(...requestErrors.map((e) => `request: ${e}`));
    problems.push(...this.#responseErrors(op, exchange).map((e) => `response: ${e}`));
    if (problems.length > 0) {
      throw new Error(
        `openapi: ${exchange.method} ${exchange.url.pathname}${exchange.url.search} -> ${exchange.status}\n  ${problems.join('\n  ')}`,
      );
    }
    const key = `${op.method} /v1${op.template}`;
    if (!this.covered.has(key)) this.covered.set(key, new Set());
    this.covered.get(key)!.add(exchange.status);
  }
}
