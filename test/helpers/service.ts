import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import type { Logger } from '../../src/core/logger.ts';
import { buildHttpApp } from '../../src/http/server.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { createService } from '../../src/app/service.ts';
import type { Service } from '../../src/app/service.ts';

/** A temporary directory removed by `cleanup()`. */
export function tempDir(prefix = 'pipit-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A logger whose lines are kept, parsed, in `lines`.
 *
 * @example
 * const { log, lines } = captureLog('warn');
 * const t = await makeApp('', { log });
 */
export function captureLog(level: string): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { log: createLogger({ level, destination: sink }), lines };
}

/** A service with an HTTP app (not listening) on a fresh workdir; `close()` removes everything. */
export interface TestApp {
  service: Service;
  app: FastifyInstance;
  dir: string;
  configPath: string;
  close(): Promise<void>;
}

/**
 * Builds a service + HTTP app from a YAML snippet appended to a minimal config; `scripts` are
 * written to `scripts/` (file name → source) and loaded from there.
 *
 * @example
 * const t = await makeApp('procedure.x:\n  - action: utils.echo');
 * const h = await makeApp('', { scripts: { 'hooks.mjs': "import { hook } from 'pipit'; ..." } });
 */
export async function makeApp(
  extraYaml = '',
  opts: {
    dir?: string;
    http?: Record<string, unknown>;
    log?: Logger;
    scripts?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const owned = opts.dir ? undefined : tempDir();
  const dir = opts.dir ?? owned!.dir;
  const configPath = join(dir, 'config.yaml');
  if (opts.scripts) {
    mkdirSync(join(dir, 'scripts'), { recursive: true });
    for (const [name, source] of Object.entries(opts.scripts))
      writeFileSync(join(dir, 'scripts', name), source);
    extraYaml = `scripts_dir: ./scripts\n${extraYaml}`;
  }
  writeFileSync(
    configPath,
    `device_id: test-host\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n${Object.entries(
      opts.http ?? {},
    )
      .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`)
      .join('')}${extraYaml}`,
  );
  const config = loadConfig({ path: configPath, plugins: builtinPlugins });
  const service = await createService(config, {
    log: opts.log ?? createLogger({ level: 'silent' }),
  });
  const app = await buildHttpApp(service);
  await app.ready();
  return {
    service,
    app,
    dir,
    configPath,
    async close() {
      await app.close();
      await service.close();
      owned?.cleanup();
    },
  };
}

/** Registers the first user through the API and returns a bearer token for them. */
export async function registerAndToken(
  app: FastifyInstance,
  username = 'ada',
  password = 'correct horse battery',
): Promise<string> {
  const reg = await app.inject({
    method: 'POST',
    url: '/register',
    payload: { username, password },
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const res = await app.inject({ method: 'POST', url: '/auth', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`auth failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}
