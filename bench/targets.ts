// Benchmark targets, run in a child process pinned to its own core: Pipit's HTTP backend (a real
// service with a registered user and a JWT) and, in the same process, a bare fastify route that
// parses and returns the same JSON. Prints one JSON line with their addresses, then waits.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../src/config/load.ts';
import { createLogger } from '../src/core/logger.ts';
import { buildResponse } from '../src/core/messages.ts';
import { buildHttpApp } from '../src/http/server.ts';
import { builtinPlugins } from '../src/plugins/index.ts';
import { createService } from '../src/service.ts';

const dir = mkdtempSync(join(tmpdir(), 'pipit-bench-'));
const configPath = join(dir, 'config.yaml');
mkdirSync(join(dir, 'scripts'));
// The web-hook benchmark's listener: a script hook answering a small JSON object.
writeFileSync(
  join(dir, 'scripts', 'bench-hook.mjs'),
  "import { hook } from 'pipit';\nhook('WebhookEvent', { hook: 'bench' }, (e) => ({ ok: true, method: e.method }));\n",
);
writeFileSync(
  configPath,
  'device_id: bench\nworkdir: ./data\nscripts_dir: ./scripts\nlogging: {level: warn}\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n',
);
const service = await createService(loadConfig({ path: configPath, plugins: builtinPlugins }), {
  log: createLogger({ level: 'warn' }),
});
const user = await service.auth.addUser('bench', 'bench password 123');
const { token } = await service.auth.issueToken(user, { name: 'bench' });
const pipit = await buildHttpApp(service);
const pipitUrl = await pipit.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify();
bare.post('/bare', async (req) => {
  const body = req.body as { id?: string; args?: unknown };
  return buildResponse({
    id: body.id,
    target: 'http',
    origin: 'bench',
    output: body.args,
    errors: [],
  });
});
bare.get('/bare-hook', async () => ({ ok: true, method: 'GET' }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ pipitUrl, bareUrl, token })}\n`);

const stop = async () => {
  await pipit.close();
  await bare.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
