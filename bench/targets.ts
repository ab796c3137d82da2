// Benchmark targets, run in a child process pinned to its own core: Pipit's HTTP backend (a real
// service with a registered user and a JWT) and, in the same process, bare fastify routes that
// parse and return the same JSON, one of them verifying the same JWT (cached after the first
// verification, as Pipit does), and the "-recorded" floors: the same plus recording each run into
// Pipit's history. Prints one JSON line with their addresses, then waits.
import Fastify from 'fastify';
import type { onRequestHookHandler } from 'fastify';
import { jwtVerify } from 'jose';
import { loadOrCreateSecret } from '../src/auth/jwt.ts';
import { buildResponse } from '../src/core/messages.ts';
import { RunRecord } from '../src/core/runs.ts';
import { makeEvent } from '../src/events/event.ts';
import { CoreKinds } from '../src/events/kinds.ts';
import { requestRecorder, startBenchService } from './bench-service.ts';
import { BENCH_HOOK_REPLY, scriptHookSource } from './hook-config.ts';

// The web-hook benchmark's listener: a script hook answering a small JSON object.
const pipit = await startBenchService({
  'bench-hook.mjs': scriptHookSource('bench', BENCH_HOOK_REPLY),
});
const pipitUrl = pipit.url;
const { token } = pipit;

const bare = Fastify();
const echo = async (req: { body: unknown }) => {
  const body = req.body as { id?: string; args?: unknown };
  return buildResponse({
    id: body.id,
    target: 'http',
    origin: 'bench',
    output: body.args,
    errors: [],
  });
};
bare.post('/bare', echo);

// The same echo behind the least a JWT-authenticated route must do: read the bearer token and
// verify it, once per token (then a Map lookup), before the body is read.
const key = loadOrCreateSecret(pipit.service.config.workdir);
const verified = new Map<string, unknown>();
const jwtOnRequest: onRequestHookHandler = (req, reply, done) => {
  const header = req.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  if (!token) return void reply.code(401).send({ error: 'no token' });
  if (verified.has(token)) return done();
  jwtVerify(token, key, { issuer: 'pipit', audience: 'pipit-api', algorithms: ['HS256'] }).then(
    ({ payload }) => {
      verified.set(token, payload);
      done();
    },
    () => void reply.code(401).send({ error: 'bad token' }),
  );
};
bare.post('/bare-jwt', { onRequest: jwtOnRequest }, echo);
// The floor under the /execute goal: the same, plus the run that issue 14 records for every
// request, through Pipit's own RunRecord into the same history.
const recordHttp = requestRecorder(pipit.service, 'http');
bare.post('/bare-jwt-recorded', { onRequest: jwtOnRequest }, async (req) => {
  const body = req.body as { action: string; args?: Record<string, unknown> };
  const answer = await echo(req);
  recordHttp(body, body.args);
  return answer;
});
bare.get('/bare-hook', async () => ({ ok: true, method: 'GET' }));
// The floor under the web-hook goal: the bare route plus what issue 14 requires of every web hook,
// its event made and its run recorded, through Pipit's own RunRecord into the same history.
const { runs } = pipit.service.services;
bare.get('/bare-hook-recorded', async (req) => {
  const event = makeEvent(
    CoreKinds.WebhookEvent,
    {
      hook: 'bench',
      method: req.method,
      args: req.query ?? {},
      data: null,
      headers: { ...req.headers },
    },
    'bench',
  );
  const trigger = { hook: 'bench-hook#0', event_id: event.id, event_type: event.args.type };
  const record = new RunRecord(runs, { transport: 'webhook', trigger });
  record.kind = 'hook';
  record.name = 'bench-hook#0';
  record.args = event.args;
  const output = { ok: true, method: req.method };
  record.finish(null, [], output);
  return output;
});
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
