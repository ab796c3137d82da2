// The documented commands work as written. The service is started with the README's set-up
// command 1, `npm start` (the test suite itself is command 2), then every shell block marked
// `<!-- readme-test: run -->` in README.md and the pages under docs/ runs in order (the README's
// tour first, then the pages by path) in one shell, against that service. The configuration is
// where the tour's blocks add to it, the user path under a temporary HOME.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../helpers/net.ts';
import { stopProcessGroup } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';
import { docsFiles } from './docs-text.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const DOCS = docsFiles().map((file) => readFileSync(join(ROOT, file), 'utf8'));

/** The shell blocks marked to run, in the order of the text. */
function runnableBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const pattern = /<!-- readme-test: run -->\s*```sh\n([\s\S]*?)```/g;
  for (let m = pattern.exec(markdown); m; m = pattern.exec(markdown)) blocks.push(m[1]!);
  return blocks;
}

let tmp: ReturnType<typeof tempDir>;
let port: number;
let service: ReturnType<typeof spawn>;
/** What the service has written so far (its log). */
let out = '';

/** HOME is the temporary folder, so `~/.config/pipit/config.yaml` is the one the tour edits. */
function env(): NodeJS.ProcessEnv {
  const vars: NodeJS.ProcessEnv = { ...process.env, HOME: tmp.dir };
  delete vars.PIPIT_CONFIG;
  delete vars.XDG_CONFIG_HOME;
  return vars;
}

beforeAll(async () => {
  tmp = tempDir();
  port = await freePort();
  // The search order reads ./config.yaml before the user path: the checkout must not have one.
  if (existsSync(join(ROOT, 'config.yaml')))
    throw new Error(`${join(ROOT, 'config.yaml')} exists: it would be read instead of the tour's`);
  mkdirSync(join(tmp.dir, '.config', 'pipit'), { recursive: true });
  writeFileSync(
    join(tmp.dir, '.config', 'pipit', 'config.yaml'),
    `device_id: readme\nworkdir: ./data\nbackend.http:\n  port: ${port}\n  bind_address: 127.0.0.1\n`,
  );
  service = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: env(), detached: true });
  await new Promise<void>((resolve, reject) => {
    service.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Pipit listening on')) resolve();
    });
    service.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    service.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}, 60_000);

afterAll(async () => {
  // npm start runs pipit in a child: stop the whole group, and wait for all of it (on a failed
  // start too) before the folder it works in is deleted.
  try {
    if (service?.pid) await stopProcessGroup(service.pid);
  } finally {
    tmp.cleanup();
  }
}, 40_000);

describe('the README and the docs pages', () => {
  it('have runnable blocks in the sections a newcomer follows', () => {
    // The README's tour: register, a token, a call to /execute.
    expect(runnableBlocks(README).length).toBeGreaterThanOrEqual(3);
    expect(DOCS.flatMap(runnableBlocks).length).toBeGreaterThanOrEqual(5);
  });

  it("set-up command 1 is the README's, as the service here is started", () => {
    expect(README).toMatch(/^npm ci && npm start$/m);
    expect(README).toMatch(/^bash scripts\/system-deps\.sh && npm ci && npm test$/m);
  });

  it('has the pipit command in node_modules/.bin after npm ci (the prepare script links it)', () => {
    expect(realpathSync(join(ROOT, 'node_modules', '.bin', 'pipit'))).toBe(
      realpathSync(join(ROOT, 'bin', 'pipit.js')),
    );
  });

  it('runs every marked command, in order, as written', async () => {
    const script = DOCS.flatMap(runnableBlocks)
      .join('\n')
      .replaceAll('localhost:8008', `127.0.0.1:${port}`);
    // In the checkout, as the README says (its first block puts node_modules/.bin on the PATH).
    const shell = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env: env() });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    shell.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(shell, 'exit')) as [number];
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    // Each command did what the README says, not merely exit 0.
    expect(stdout).toContain('"username": "ada"');
    expect(stdout).toContain('"response":{"output":{"text":"hi"},"errors":[]}');
    expect(stdout).toContain('"registration_open":false');
    expect(stdout).toMatch(/"csrf_token":"[\w-]+"/);
    // The token made for "kitchen tablet" was revoked by its id.
    expect(stdout).toContain('{"success":true}');
    expect(stdout).toContain('"count": 3');
    expect(stdout).toContain('"artist": "Nina Simone"');
    expect(stdout).toContain('echo  Returns the arguments it was given');
    expect(stdout).toContain('"name": "cli"');
    expect(stdout).toContain('"reloaded": true');
    expect(stdout).not.toMatch(/"errors":\s*\[\s*"/);
    // The tour's procedure answered, and its hook ran in the service (its log line).
    expect(stdout).toContain('"response":{"output":"hello Ada","errors":[]}');
    await vi.waitFor(() => expect(out).toContain('the door opened'), { timeout: 10_000 });
  }, 120_000);
});
