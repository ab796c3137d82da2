// Node-RED for `npm run bench:peers`: installed once into a cache folder outside the project's
// dependencies (never in package.json), and started on a generated settings file and flows file
// that answer the same requests as Pipit's benchmark hooks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { nodeRedReplyFunction, PEER_HOOK_REPLY } from './hook-config.ts';

/** What `npm install` is asked for. */
export const NODE_RED_SPEC = 'node-red@4';

/** The device id both servers answer `/execute` with (Pipit's `device_id`). */
export const PEER_DEVICE_ID = 'bench';

/**
 * The folder Node-RED is installed into: BENCH_NODE_RED_DIR, else
 * `${XDG_CACHE_HOME:-~/.cache}/pipit-bench/node-red`.
 *
 * @example
 * nodeRedCacheDir({ XDG_CACHE_HOME: '/var/cache' }); // '/var/cache/pipit-bench/node-red'
 */
export function nodeRedCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_NODE_RED_DIR) return env.BENCH_NODE_RED_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'pipit-bench', 'node-red');
}

/**
 * Installs Node-RED into the cache folder unless it is already there (so only the first run needs
 * the network), and returns the path of its `red.js` and its version.
 *
 * @example
 * const { redJs, version } = ensureNodeRed();
 */
export function ensureNodeRed(dir = nodeRedCacheDir()): { redJs: string; version: string } {
  const pkg = join(dir, 'node_modules', 'node-red', 'package.json');
  if (!existsSync(pkg)) {
    mkdirSync(dir, { recursive: true });
    console.log(`installing ${NODE_RED_SPEC} into ${dir} (once; later runs reuse it)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const args = ['install', '--prefix', dir, NODE_RED_SPEC, '--no-audit', '--no-fund'];
    const done = spawnSync(npm, args, { stdio: 'inherit' });
    if (done.status !== 0 || !existsSync(pkg))
      throw new Error(
        `npm ${args.join(' ')} failed (status ${done.status}): Node-RED is needed for this benchmark, from the npm registry`,
      );
  }
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  return { redJs: join(dir, 'node_modules', 'node-red', 'red.js'), version };
}

// `/execute`'s equivalent: the request message checked as Pipit checks its action name, and the
// answer utils.echo gives (its args), in Pipit's response message.
const EXECUTE_FUNCTION = `const req = msg.payload || {};
const answer = (status, output, errors) => {
  msg.statusCode = status;
  msg.payload = { id: req.id ?? String(Date.now()), type: 'response', target: 'http',
    origin: ${JSON.stringify(PEER_DEVICE_ID)}, _timestamp: Date.now() / 1000,
    response: { output, errors } };
  return msg;
};
if (req.type !== 'request' || req.action !== 'utils.echo')
  return answer(404, { success: false }, ['unknown action: ' + req.action]);
return answer(200, req.args ?? {}, []);`;

/**
 * The flows: `POST /hook/bench` → a function building the hook's reply → `http response`, and
 * `POST /execute` → a function doing utils.echo's work → `http response`.
 *
 * @example
 * writeFileSync('flows.json', JSON.stringify(benchFlows()));
 */
export function benchFlows(): object[] {
  const route = (id: string, url: string, func: string) => [
    {
      id: `${id}-in`,
      type: 'http in',
      z: 'bench',
      url,
      method: 'post',
      upload: false,
      wires: [[`${id}-fn`]],
    },
    {
      id: `${id}-fn`,
      type: 'function',
      z: 'bench',
      name: id,
      func,
      outputs: 1,
      wires: [[`${id}-out`]],
    },
    { id: `${id}-out`, type: 'http response', z: 'bench', statusCode: '', headers: {}, wires: [] },
  ];
  return [
    { id: 'bench', type: 'tab', label: 'bench' },
    ...route('hook', '/hook/bench', nodeRedReplyFunction(PEER_HOOK_REPLY)),
    ...route('execute', '/execute', EXECUTE_FUNCTION),
  ];
}

/**
 * Writes Node-RED's settings and flows into `userDir` (a temporary folder) and returns the
 * arguments that start it there on `port`: the editor stays on, as a user runs it (without
 * admin auth), telemetry is off (no network), and the console logs warnings only.
 *
 * @example
 * const args = nodeRedArgs(ensureNodeRed().redJs, dir, 1880);
 * spawn(process.execPath, args);
 */
export function nodeRedArgs(redJs: string, userDir: string, port: number): string[] {
  writeFileSync(join(userDir, 'flows.json'), JSON.stringify(benchFlows(), null, 2));
  const settings = {
    uiPort: port,
    uiHost: '127.0.0.1',
    userDir,
    flowFile: 'flows.json',
    credentialSecret: false,
    telemetry: { enabled: false },
    logging: { console: { level: 'warn', metrics: false, audit: false } },
  };
  const file = join(userDir, 'settings.js');
  writeFileSync(file, `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  return [redJs, '--settings', file];
}
