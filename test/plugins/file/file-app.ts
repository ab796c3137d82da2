import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';

/**
 * `<dir>/pipit`, created: where a test service keeps its configuration and workdir, beside (never
 * holding) the file roots under `<dir>`.
 *
 * @example
 * const t = await makeApp('file: {roots: [...]}', { dir: pipitDir(tmp.dir) });
 */
export function pipitDir(dir: string): string {
  const at = join(dir, 'pipit');
  mkdirSync(at, { recursive: true });
  return at;
}

/** A service with the file plugin confined to a fresh `root` folder in its temp workdir. */
export interface FileApp {
  t: TestApp;
  /** `<workdir>/root`, the first of file.roots. */
  root: string;
  /** Stops the service and removes its directory. */
  close(): Promise<void>;
}

/**
 * Starts a service whose `file.roots` are `root` (created) and whatever `roots` adds, with the
 * `extra` lines of file config; `prepare` runs on the folder first.
 *
 * @example
 * const f = await fileApp({ extra: ['max_list_entries: 2'] });
 * await call(f.t, 'file.write', { file: 'a.txt', content: 'x' }); // <root>/a.txt
 * await f.close();
 */
export async function fileApp(
  opts: {
    extra?: string[];
    roots?: (root: string) => string[];
    prepare?: (root: string) => void | Promise<void>;
  } = {},
): Promise<FileApp> {
  const tmp = tempDir();
  const root = join(tmp.dir, 'root');
  mkdirSync(root);
  await opts.prepare?.(root);
  const roots = [root, ...(opts.roots?.(root) ?? [])].map((r) => JSON.stringify(r)).join(', ');
  const lines = [`file:`, `  roots: [${roots}]`, ...(opts.extra ?? []).map((l) => `  ${l}`)];
  // Pipit's own files (config, workdir, scripts) live apart from the root: a root over them is refused.
  const t = await makeApp(`${lines.join('\n')}\n`, { dir: pipitDir(tmp.dir) });
  return {
    t,
    root,
    async close() {
      await t.close();
      tmp.cleanup();
    },
  };
}
