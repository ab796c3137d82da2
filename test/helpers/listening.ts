// A listening Pipit (real sockets) with optional user scripts, a registered user and a token.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../src/core/logger.ts';
import { makeApp, registerAndToken, tempDir } from './service.ts';
import type { TestApp } from './service.ts';

/** A started app: `http` and `ws` base addresses, and a bearer token for user "ada". */
export interface Listening {
  t: TestApp;
  http: string;
  ws: string;
  token: string;
  auth: { authorization: string };
  close(): Promise<void>;
}

/**
 * Starts an app listening on 127.0.0.1 with `scripts` (file name → source) in its scripts_dir.
 *
 * @example
 * const s = await listening({ scripts: { 'p.mjs': "import { procedure } from 'pipit'; ..." } });
 */
export async function listening(
  opts: {
    yaml?: string;
    scripts?: Record<string, string>;
    http?: Record<string, unknown>;
    log?: Logger;
  } = {},
): Promise<Listening> {
  const tmp = tempDir();
  mkdirSync(join(tmp.dir, 'scripts'));
  for (const [name, source] of Object.entries(opts.scripts ?? {}))
    writeFileSync(join(tmp.dir, 'scripts', name), source);
  const t = await makeApp(`scripts_dir: ./scripts\n${opts.yaml ?? ''}`, {
    dir: tmp.dir,
    ...(opts.http ? { http: opts.http } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const token = await registerAndToken(t.app);
  const http = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t,
    http,
    ws: http.replace(/^http/, 'ws'),
    token,
    auth: { authorization: `Bearer ${token}` },
    async close() {
      await t.close();
      tmp.cleanup();
    },
  };
}

/** A JSON text nested `depth` levels deep: `{"a":{"a":...1...}}`. */
export function nestedJson(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** The same nesting as a value, built without recursion. */
export function nestedValue(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
