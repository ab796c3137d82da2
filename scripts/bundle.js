// The second half of `npm run build`, after tsc: bundles dist/cli/main.js (the `pipit` command),
// dist/testing.js (`pipit/testing`, for plugin authors' tests) and
// dist/index.js (the library, which scripts import as 'pipit') with their dependencies into a few
// files, written over those two entry points, with the shared code in dist/chunks/. Loading hundreds
// of small modules one by one was most of a start (issue 16: `pipit run` took 0.5 s, `pipit start`
// 0.6 s).
// What each command does not use stays in chunks of its own, loaded on demand (the HTTP stack,
// metrics, plugins that are not enabled).
//
// Left to Node: native modules (@node-rs/argon2), and the clients that load only when configured
// (mqtt, ioredis). Modules that find files next to themselves (import.meta.url, import.meta.dirname)
// still see the place tsc wrote them to.
//
// Usage: node scripts/bundle.js [dist folder, default ./dist]
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { RolldownMagicString, rolldown } from 'rolldown';

const dist = resolve(process.argv[2] ?? 'dist');
if (readFileSync(join(dist, 'cli/main.js'), 'utf8').includes('../chunks/')) {
  console.error(`${dist} is bundled already: compile it again first (npm run build does both)`);
  process.exit(1);
}
// Chunk names carry a hash: those of an earlier build would pile up.
rmSync(join(dist, 'chunks'), { recursive: true, force: true });
const EXTERNAL = ['@node-rs/', 'mqtt', 'ioredis'];
const posix = (path) => path.split(sep).join('/');

// Replaces every match of `pattern`, with a source map of the change.
function rewrite(code, pattern, replace) {
  const out = new RolldownMagicString(code);
  for (const match of code.matchAll(pattern))
    out.overwrite(match.index, match.index + match[0].length, replace(...match));
  return { code: out.toString(), map: out.generateMap({ hires: true }).toString() };
}

const bundle = await rolldown({
  input: {
    'cli/main': join(dist, 'cli/main.js'),
    index: join(dist, 'index.js'),
    testing: join(dist, 'testing.js'),
  },
  platform: 'node',
  external: (id) =>
    id.startsWith('node:') ||
    EXTERNAL.some((e) => id === e || id.startsWith(e.endsWith('/') ? e : `${e}/`)),
  plugins: [
    {
      name: 'import-meta-where-tsc-wrote-it',
      // Marked here, with the module's place in dist/; rewritten once its chunk's place is known.
      transform(code, id) {
        if (!id.startsWith(dist + sep) || !code.includes('import.meta.')) return null;
        const file = JSON.stringify(posix(relative(dist, id)));
        const dir = JSON.stringify(posix(relative(dist, dirname(id))));
        return rewrite(code, /import\.meta\.(url|dirname)\b/g, (_, key) =>
          key === 'url' ? `__PIPIT_META_URL__(${file})` : `__PIPIT_META_DIR__(${dir})`,
        );
      },
      renderChunk(code, chunk) {
        if (!code.includes('__PIPIT_META_')) return null;
        const up = posix(relative(dirname(join(dist, chunk.fileName)), dist)) || '.';
        return rewrite(code, /__PIPIT_META_(URL|DIR)__\(("[^"]*")\)/g, (_, key, path) =>
          key === 'URL'
            ? `new URL(${JSON.stringify(`${up}/`)} + ${path}, import.meta.url).href`
            : `(import.meta.dirname + ${JSON.stringify(`/${up}/`)} + ${path})`,
        );
      },
    },
  ],
  // A dependency that cannot be found would be left as an import of its own, and fail at run time.
  onLog(level, log, handler) {
    if (log.code === 'UNRESOLVED_IMPORT') handler('error', log);
    else handler(level, log);
  },
  logLevel: 'warn',
});
await bundle.write({
  dir: dist,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  sourcemap: true,
});
await bundle.close();
