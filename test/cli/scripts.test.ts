import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

// The production path: Node 24 itself loads the scripts (type stripping for .ts) and resolves
// `import 'pipit'` to the running package, in a real `pipit start`.
describe('scripts_dir in a real process', () => {
  let proc: PipitProcess;
  let cleanup: () => void;
  let token: string;

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    mkdirSync(join(tmp.dir, 'scripts'));
    writeFileSync(
      join(tmp.dir, 'scripts', 'a-good.ts'),
      `import { hook, procedure, run, WebhookEvent } from 'pipit';
       import type { ScriptEvent } from 'pipit';
       const secret: string = process.env.HOOK_TOKEN ?? '';
       hook(WebhookEvent, { hook: 'door' }, (event: ScriptEvent) => {
         const headers = event.headers as Record<string, string>;
         if (headers['x-token'] !== secret) return event.sendResponse('Unauthorized', 401);
         return { opened: true };
       });
       procedure('double', ['n'], async ({ n }) => (await run('utils.echo', { v: Number(n) * 2 }) as { v: number }).v);`,
    );
    writeFileSync(join(tmp.dir, 'scripts', 'b-broken.mjs'), 'export const x = ;\n');
    writeFileSync(
      join(tmp.dir, 'config.yaml'),
      'workdir: ./data\nscripts_dir: ./scripts\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n',
    );
    proc = await startPipitProcess(join(tmp.dir, 'config.yaml'), { HOOK_TOKEN: 's3cret' });
    const post = (path: string, body: unknown) =>
      fetch(`${proc.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/register', { username: 'ada', password: 'correct horse battery' });
    token = (
      (await (
        await post('/auth', { username: 'ada', password: 'correct horse battery' })
      ).json()) as { token: string }
    ).token;
  });
  afterAll(async () => {
    await proc.stop();
    cleanup();
  });

  it('reports the broken script with its file and error, and keeps serving the others', () => {
    const line = proc.logs.find((l) => l.includes('b-broken.mjs') && l.includes('failed to load'));
    expect(line).toBeDefined();
    expect(line).toMatch(/Unexpected token|SyntaxError/);
  });

  it('answers a web hook from a TypeScript script (token header check)', async () => {
    const bad = await fetch(`${proc.url}/hook/door`, { headers: { 'x-token': 'nope' } });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toBe('Unauthorized');
    const good = await fetch(`${proc.url}/hook/door`, { headers: { 'x-token': 's3cret' } });
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ opened: true });
  });

  it('runs a script procedure over HTTP, calling run() into the same service', async () => {
    const res = await fetch(`${proc.url}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'request', action: 'procedure.double', args: { n: '21' } }),
    });
    expect(((await res.json()) as { response: unknown }).response).toEqual({
      output: 42,
      errors: [],
    });
  });
});
