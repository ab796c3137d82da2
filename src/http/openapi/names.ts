/**
 * The key of a component (`#/components/schemas/<key>`): OpenAPI allows only letters, digits, `.`,
 * `-` and `_` there, so anything else in an action, procedure or `$defs` name becomes `_`.
 *
 * @example
 * componentKey('Args', 'music.spotify.play'); // 'Args.music.spotify.play'
 */
export function componentKey(kind: string, name: string): string {
  return `${kind}.${name.replace(/[^\w.-]/g, '_')}`;
}

/**
 * A `$ref` to a schema in the document's components.
 *
 * @example
 * schemaRef('ResponseMessage'); // { $ref: '#/components/schemas/ResponseMessage' }
 */
export function schemaRef(key: string): { $ref: string } {
  return { $ref: `#/components/schemas/${key}` };
}

/**
 * A `$ref` to a response in the document's components.
 *
 * @example
 * responseRef('Error404'); // { $ref: '#/components/responses/Error404' }
 */
export function responseRef(key: string): { $ref: string } {
  return { $ref: `#/components/responses/${key}` };
}
