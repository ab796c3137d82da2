// Benchmark targets, run in a child process pinned to its own core: Pipit's HTTP backend (a real
// service with a registered user and a JWT) and, in the same process, a bare fastify route that
// parses and returns the same JSON. Prints one JSON line with their addresses, then waits.
import Fastify from 'fastify';
import { buildResponse } from '../src/core/messages.ts';
import { startBenchService } from './bench-service.ts';

// The web-hook benchmark's listener: a script hook answering a small JSON object.
const pipit = await startBenchService({
  'bench-hook.mjs':
    "import { hook } from 'pipit';\nhook('WebhookEvent', { hook: 'bench' }, (e) => ({ ok: true, method: e.method }));\n",
});
const pipitUrl = pipit.url;
const { token } = pipit;

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
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.resume();
