import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REDIRECT_URI,
  loopbackRedirectUri,
  SpotifyConfig,
} from '../../../src/plugins/music/spotify/config.ts';
import { PIPIT_REDIRECT_URI } from '../../../tools/spotify-emulator/config.ts';

// `npm run emulator`: its help, and a default app that a Pipit with default settings can use.

const CLI = join(import.meta.dirname, '..', '..', '..', 'tools', 'spotify-emulator', 'cli.ts');

async function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
}

describe('npm run emulator', () => {
  it('--help prints the usage and exits 0', async () => {
    const { code, out, err } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^Usage: npm run emulator -- \[options\]/);
    for (const option of ['--port', '--redirect-uri', '--public-client', '--mode', '-h, --help'])
      expect(out).toContain(option);
    expect(out).toContain(`(default ${DEFAULT_REDIRECT_URI}, Pipit's default;`);
    expect((await runCli(['-h'])).out).toBe(out);
  });

  it('refuses an unknown option or a bad value with the usage, exit 2', async () => {
    const unknown = await runCli(['--prot', '9000']);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toBe('');
    expect(unknown.err).toMatch(/^emulator: Unknown option '--prot'/);
    expect(unknown.err).toContain('Usage: npm run emulator');
    const mode = await runCli(['--mode', 'weird']);
    expect(mode.code).toBe(2);
    expect(mode.err).toMatch(/^emulator: --mode: expected development or extended, not weird/);
  });

  it('accepts Pipit’s default redirect URI unless told otherwise', async () => {
    expect(PIPIT_REDIRECT_URI).toBe(DEFAULT_REDIRECT_URI);
    // Without redirect_uri the plugin uses the loopback address on the service's port, which is
    // this one on the default port 8008.
    expect(SpotifyConfig.parse({ client_id: 'x' }).redirect_uri).toBeUndefined();
    expect(loopbackRedirectUri(8008)).toBe(PIPIT_REDIRECT_URI);

    const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet']);
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await expect.poll(() => out, { timeout: 10_000 }).toContain('auth_url:');
      expect(out).toContain(`redirect URIs: ${DEFAULT_REDIRECT_URI}\n`);
      // The config it prints names the redirect URI it accepts, so that a Pipit on another port
      // still connects once that line is copied.
      expect(out).toContain(`    redirect_uri: ${DEFAULT_REDIRECT_URI}`);
      const accounts = /auth_url: (\S+)/.exec(out)![1]!;
      const clientId = /client_id:\s+(\S+)/.exec(out)![1]!;
      // What a Pipit with only `client_id` configured sends: the emulator redirects back to it.
      const url = new URL(`${accounts}/authorize`);
      url.search = new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: DEFAULT_REDIRECT_URI,
        scope: 'user-read-private',
        state: 's',
      }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(
        new RegExp(`^${DEFAULT_REDIRECT_URI.replace(/[.?]/g, '\\$&')}\\?code=`),
      );
    } finally {
      const exited = child.exitCode !== null ? [child.exitCode] : once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
    }
  });
});
