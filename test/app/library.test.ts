import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/service.ts';

const ROOT = join(import.meta.dirname, '..', '..');

// `npm test` builds first; when run alone, rebuild if any source is newer than the build.
function distIsStale(): boolean {
  const built = join(ROOT, 'dist', 'index.js');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((e) =>
        e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
      ),
    );
  return newest(join(ROOT, 'src')) > builtAt;
}

describe('library use from a script outside the repository', () => {
  let dir: string;
  let cleanup: () => void;

  beforeAll(() => {
    if (distIsStale()) {
      execFileSync(process.execPath, [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
      ]);
    }
    ({ dir, cleanup } = tempDir('pipit-lib-'));
    // What `npm install ../pipit` makes: a package depending on Pipit by path.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'pipit'), 'dir');
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ type: 'module', dependencies: { pipit: `file:${ROOT}` } }),
    );
    writeFileSync(join(dir, 'config.yaml'), 'device_id: lib-host\nworkdir: ./data\n');
  });
  afterAll(() => cleanup());

  const script = (name: string, body: string) => {
    writeFileSync(join(dir, name), body);
    const res = spawnSync(process.execPath, [join(dir, name)], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PIPIT_LOG_LEVEL: 'silent' },
    });
    return { code: res.status, out: res.stdout.trim(), err: res.stderr };
  };

  it('runs actions with Config.init, returns outputs and throws with the errors', () => {
    const res = script(
      'script.mjs',
      `import { Config, run, shutdown } from 'pipit';
       Config.init('./config.yaml');
       const echo = await run('utils.echo', { text: 'hi' });
       await run('variable.set', { counter: 41 });
       const got = await run('variable.get', { name: 'counter' });
       let failure;
       try { await run('utils.sleep', { seconds: 'later' }); } catch (e) { failure = { code: e.code, errors: e.details.errors }; }
       let missing;
       try { await run('nope.thing'); } catch (e) { missing = e.code; }
       await shutdown();
       console.log(JSON.stringify({ echo, got, failure, missing }));`,
    );
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.out);
    expect(out.echo).toEqual({ text: 'hi' });
    expect(out.got).toEqual({ counter: 41 });
    expect(out.failure.code).toBe('INVALID_ARGUMENTS');
    expect(out.failure.errors[0]).toMatch(/"seconds".*"later"/);
    expect(out.missing).toBe('NOT_FOUND');
  });

  it('finds ./config.yaml without Config.init and sees the same stored variables', () => {
    const res = script(
      'again.mjs',
      `import { run, shutdown } from 'pipit';
       console.log(JSON.stringify(await run('variable.get', { name: 'counter' })));
       await shutdown();`,
    );
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toEqual({ counter: 41 });
  });

  it('on a Node.js older than 24, import says what Pipit needs instead of a raw module error', () => {
    writeFileSync(
      join(dir, 'old-node.mjs'),
      `import { run } from 'pipit';\nconsole.log(typeof run);`,
    );
    // This Node pretending to be 20 (a preload rewrites process.versions.node): without the check,
    // the import succeeds here, since node:sqlite exists.
    writeFileSync(
      join(dir, 'pretend-20.mjs'),
      `Object.defineProperty(process.versions, 'node', { value: '20.11.1' });`,
    );
    const runs = [
      { node: process.execPath, args: ['--import', './pretend-20.mjs'], version: '20.11.1' },
    ];
    // And a real older Node when this machine has one on PATH (the raw error came from it).
    const onPath = spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const pathVersion = onPath.status === 0 ? onPath.stdout.trim() : '';
    if (pathVersion && Number(pathVersion.split('.')[0]) < 24)
      runs.push({ node: 'node', args: [], version: pathVersion });
    for (const { node, args, version } of runs) {
      const res = spawnSync(node, [...args, 'old-node.mjs'], { cwd: dir, encoding: 'utf8' });
      expect(res.status, res.stderr).not.toBe(0);
      expect(res.stderr).toContain(
        `Pipit needs Node.js 24 or newer, and this is Node.js ${version}`,
      );
      expect(res.stderr).not.toMatch(/ERR_UNKNOWN_BUILTIN_MODULE|No such built-in module/);
    }
  });
});
