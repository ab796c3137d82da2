import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/**
 * Node's `http` module, loaded with `require()`. An ES `import ... from 'node:http'` makes Node
 * build the module's ES facade, which reads every export, the lazy `WebSocket` and friends too:
 * that loads Node's whole fetch stack (undici), about 30 ms of a 0.45 s start, for nothing a
 * server uses. Type-only imports of `node:http` are fine (the lint rule allows them).
 *
 * @example
 * import { nodeHttp } from '../lib/node-http.ts';
 * const server = nodeHttp.createServer((req, res) => res.end('ok'));
 */
export const nodeHttp = createRequire(import.meta.url)('node:http') as typeof Http;
