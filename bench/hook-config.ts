// The web hooks the benchmarks answer, written once as a reply spec and turned into each form that
// serves it: a Pipit script hook, a Pipit YAML hook and a Node-RED function node. Generating all
// three from one spec keeps them answering the same body (bench/peers.ts checks it on the wire).

/** Where one field of a hook's reply comes from: a constant, the request's method, or its body. */
export type ReplySource = { const: string | number | boolean | null } | 'method' | { data: string };

/** A hook's reply: its fields, in order, each from a {@link ReplySource}. */
export type HookReply = Record<string, ReplySource>;

/** The reply of `npm run bench`'s web hook (`GET /hook/bench`, compared with a bare route). */
export const BENCH_HOOK_REPLY: HookReply = { ok: { const: true }, method: 'method' };

/**
 * The reply of `npm run bench:peers`'s web hook: built from the method and two fields of the JSON
 * body, so that the body is parsed and read, as a real hook's is.
 */
export const PEER_HOOK_REPLY: HookReply = {
  ok: { const: true },
  method: 'method',
  device: { data: 'device' },
  value: { data: 'value' },
};

/** The body `npm run bench:peers` posts to its web hook. */
export const PEER_HOOK_BODY = JSON.stringify({ device: 'door', value: 21.5, tags: ['a', 'b'] });

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function checkedKey(key: string): string {
  if (!IDENTIFIER.test(key)) throw new Error(`hook reply field "${key}": use an identifier`);
  return key;
}

// One field's value as code reading the event (`e`, Pipit's WebhookEvent) or the message (`msg`,
// Node-RED's, whose body is msg.payload and request msg.req).
function expression(source: ReplySource, form: 'pipit' | 'node-red'): string {
  if (source === 'method') return form === 'pipit' ? 'e.method' : 'msg.req.method';
  if ('const' in source) return JSON.stringify(source.const);
  const field = checkedKey(source.data);
  return form === 'pipit' ? `e.data.${field}` : `body.${field}`;
}

const objectLiteral = (reply: HookReply, form: 'pipit' | 'node-red') =>
  `{ ${Object.entries(reply)
    .map(([key, source]) => `${checkedKey(key)}: ${expression(source, form)}`)
    .join(', ')} }`;

/**
 * A Pipit script (a file of `scripts_dir`) whose hook answers web hook `name` with `reply`.
 *
 * @example
 * scriptHookSource('bench', BENCH_HOOK_REPLY);
 * // import { hook } from 'pipit';
 * // hook('WebhookEvent', { hook: 'bench' }, (e) => ({ ok: true, method: e.method }));
 */
export function scriptHookSource(name: string, reply: HookReply): string {
  return `import { hook } from 'pipit';\nhook('WebhookEvent', { hook: ${JSON.stringify(name)} }, (e) => (${objectLiteral(reply, 'pipit')}));\n`;
}

/**
 * A YAML hook (a section of Pipit's configuration) that answers web hook `name` with `reply`.
 *
 * @example
 * yamlHookSource('bench', PEER_HOOK_REPLY);
 * // event.hook.BenchWebhook:
 * //   if: {type: WebhookEvent, hook: bench}
 * //   then:
 * //     - return:
 * //         ok: true
 * //         method: ${method}
 * //         ...
 */
export function yamlHookSource(name: string, reply: HookReply): string {
  const fields = Object.entries(reply).map(([key, source]) => {
    const value =
      source === 'method'
        ? '${method}'
        : 'const' in source
          ? JSON.stringify(source.const)
          : `\${data.${checkedKey(source.data)}}`;
    return `        ${checkedKey(key)}: ${value}`;
  });
  return [
    'event.hook.BenchWebhook:',
    `  if: {type: WebhookEvent, hook: ${JSON.stringify(name)}}`,
    '  then:',
    '    - return:',
    ...fields,
    '',
  ].join('\n');
}

/**
 * The body of a Node-RED function node, between an `http in` and an `http response` node, that
 * answers with `reply` built from the parsed JSON body (msg.payload).
 *
 * @example
 * nodeRedReplyFunction(BENCH_HOOK_REPLY);
 * // const body = msg.payload;
 * // msg.payload = { ok: true, method: msg.req.method };
 * // return msg;
 */
export function nodeRedReplyFunction(reply: HookReply): string {
  return `const body = msg.payload;\nmsg.payload = ${objectLiteral(reply, 'node-red')};\nreturn msg;`;
}
