import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config/load.ts';
import { createLogger } from '../src/core/logger.ts';
import { buildHttpApp } from '../src/http/server.ts';
import { builtinPlugins } from '../src/plugins/index.ts';
import type { ParamShape } from '../src/core/action.ts';
import { RunRecord } from '../src/core/runs.ts';
import { tuneHeap } from '../src/app/process-policy.ts';
import { createService } from '../src/app/service.ts';
import type { Service } from '../src/app/service.ts';

/** A real Pipit for a benchmark target: temp workdir, one user, a JWT, HTTP on a free port. */
export interface BenchService {
  service: Service;
  app: FastifyInstance;
  url: string;
  token: string;
  close(): Promise<void>;
}

/**
 * Starts Pipit with the given script files in its scripts_dir.
 *
 * @example
 * const pipit = await startBenchService({ 'hook.mjs': "import { hook } from 'pipit'; ..." });
 */
export async function startBenchService(
  scripts: Record<string, string> = {},
  routes?: (app: FastifyInstance, service: Service) => void,
  extraYaml = '',
): Promise<BenchService> {
  const dir = mkdtempSync(join(tmpdir(), 'pipit-bench-'));
  mkdirSync(join(dir, 'scripts'));
  for (const [name, text] of Object.entries(scripts))
    writeFileSync(join(dir, 'scripts', name), text);
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    // Every client of a benchmark connects from 127.0.0.1: the fan-out's 1,000 subscribers are
    // over the default per-address cap (256).
    `device_id: bench\nworkdir: ./data\nscripts_dir: ./scripts\nlogging: {level: warn}\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n  max_connections_per_address: 100000\n${extraYaml}`,
  );
  const service = await createService(loadConfig({ path: configPath, plugins: builtinPlugins }), {
    log: createLogger({ level: 'warn' }),
  });
  const user = await service.auth.addUser('bench', 'bench password 123');
  const { token } = await service.auth.issueToken(user, { name: 'bench' });
  const app = await buildHttpApp(service);
  routes?.(app, service);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  // As `pipit start` does once it is up; it applies to the whole target process, bare baselines
  // included.
  tuneHeap();
  return {
    service,
    app,
    url,
    token,
    async close() {
      await app.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Records a request's run in `service`'s history (and metrics) as `execute()` does for a token
 * caller over `transport`: what the floor legs of the benchmarks add to a bare route, so that
 * they carry exactly the recording that issue 14 requires of every request.
 *
 * @example
 * const record = requestRecorder(pipit.service, 'ws');
 * record({ action: 'utils.echo', args: { text: 'hi' } }, { text: 'hi' });
 */
export function requestRecorder(
  service: Service,
  transport: string,
): (request: { action: string; args?: Record<string, unknown> }, output: unknown) => void {
  const { runs, registry } = service.services;
  // The declared parameters (what the history masks by) of each action asked for, looked up once.
  const paramsOf = new Map<string, ParamShape | undefined>();
  const caller = { user: 'bench', via: 'token', token_id: 'bench' };
  return (request, output) => {
    const record = new RunRecord(runs, { transport, caller });
    record.name = request.action;
    if (request.args) record.args = request.args;
    if (!paramsOf.has(request.action)) {
      const resolved = registry.resolve(request.action);
      paramsOf.set(request.action, resolved.kind === 'action' ? resolved.action.params : undefined);
    }
    record.params = paramsOf.get(request.action);
    record.finish(null, [], output);
  };
}
