// What `import ... from 'pipit'` loads: the library names its plugins through the lazy catalog,
// so a script of a running service (or a library user) does not load the code of every built-in
// plugin (~15 MB of resident memory for a service with one script hook) before one is used.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/service.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe("the library entry point ('pipit')", () => {
  const { dir, cleanup } = tempDir('pipit-lib-plugins-');
  afterAll(() => cleanup());

  it('loads no plugin module until a plugin is used', () => {
    const script = join(dir, 'imports.mjs');
    writeFileSync(
      script,
      [
        "import { registerHooks } from 'node:module';",
        'const seen = [];',
        'registerHooks({ resolve: (specifier, context, next) => {',
        '  const resolved = next(specifier, context);',
        '  seen.push(resolved.url);',
        '  return resolved;',
        '} });',
        `const pipit = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src/index.ts')).href)});`,
        "console.log(JSON.stringify({ run: typeof pipit.run, hook: typeof pipit.hook, seen: seen.filter((u) => u.includes('/src/plugins/')) }));",
      ].join('\n'),
    );
    const res = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    const { run, hook, seen } = JSON.parse(res.stdout) as {
      run: string;
      hook: string;
      seen: string[];
    };
    expect([run, hook]).toEqual(['function', 'function']);
    // The plugin API is part of the entry point; the plugins themselves are not.
    expect(seen.some((u) => u.endsWith('/src/plugins/api/index.ts'))).toBe(true);
    expect(seen.filter((u) => /\/src\/plugins\/.*plugin\.ts$/.test(u))).toEqual([]);
    expect(seen.some((u) => u.endsWith('/src/plugins/index.ts'))).toBe(false);
  });
});
