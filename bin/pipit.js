#!/usr/bin/env node
// The `pipit` command. Written in plain JavaScript that any Node.js can parse, so that an older
// Node gets a clear message instead of "No such built-in module: node:sqlite". Pipit needs Node 24:
// when this Node is older, the Node 24 that Pipit installs as a dependency (npm package "node") runs
// the command instead; when there is none, it says what to do.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REQUIRED_MAJOR = 24;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);

function bundledNode() {
  try {
    const pkg = createRequire(join(root, 'package.json')).resolve('node/package.json');
    const binary = join(dirname(pkg), 'bin', 'node');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

if (major < REQUIRED_MAJOR) {
  const node = process.env.PIPIT_REEXEC ? undefined : bundledNode();
  if (!node) {
    process.stderr.write(
      `pipit: Pipit needs Node.js ${REQUIRED_MAJOR} or newer, and this is Node.js ${process.versions.node}.\n` +
        `  Install Node.js ${REQUIRED_MAJOR} (https://nodejs.org, or your distribution's nodejs package),\n` +
        `  or reinstall Pipit with its dependencies (npm ci), which bring a Node.js ${REQUIRED_MAJOR} along.\n`,
    );
    process.exit(1);
  }
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PIPIT_REEXEC: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  // V8's compiled code for the bundled modules, kept on disk (in the system's temporary folder)
  // between runs: compiling them again cost `pipit run` about 15 ms of its 0.25 s.
  module.enableCompileCache?.();
  await import(pathToFileURL(entryPoint()).href);
}

// The built code when there is a build (an installed package, or a checkout after `npm ci`); in a
// checkout whose sources changed since the build, or that has none, the sources themselves (Node
// 24 strips their types), so that nobody runs stale code by surprise.
function entryPoint() {
  const built = join(root, 'dist', 'cli', 'main.js');
  const source = join(root, 'src', 'cli', 'main.ts');
  if (!existsSync(source)) return built;
  if (!existsSync(built)) return source;
  const builtAt = statSync(built).mtimeMs;
  const srcDir = join(root, 'src');
  const changed = readdirSync(srcDir, { recursive: true }).some(
    (f) => String(f).endsWith('.ts') && statSync(join(srcDir, String(f))).mtimeMs > builtAt,
  );
  if (changed)
    process.stderr.write(
      'pipit: src/ changed since the last build: running from source (npm run build to refresh dist/)\n',
    );
  return changed ? source : built;
}
