import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_CONFIG_YAML } from './config/default-config.ts';
import { loadConfig } from './config/load.ts';
import type { LoadedConfig } from './config/load.ts';
import { findConfig, userConfigPath } from './config/paths.ts';
import { createLogger } from './core/logger.ts';
import { watchEventLoop } from './core/loop-monitor.ts';
import type { Logger } from './core/logger.ts';
import { buildHttpApp } from './http/server.ts';
import { builtinPlugins } from './plugins/index.ts';
import { createService } from './service.ts';
import type { Service } from './service.ts';

/**
 * Finds and loads the configuration (DESIGN's search order). With `writeDefault`, a missing file is
 * created from the commented default first (at the explicit path, else the user config path).
 *
 * @example
 * const { config, created } = resolveConfig({ explicit: undefined, writeDefault: true });
 */
export function resolveConfig(opts: { explicit?: string | undefined; writeDefault?: boolean }): {
  config: LoadedConfig;
  created: string | null;
} {
  let path = findConfig({ explicit: opts.explicit });
  let created: string | null = null;
  if (opts.writeDefault && (path === null || !existsSync(path))) {
    const target = path ?? userConfigPath();
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, DEFAULT_CONFIG_YAML, { flag: 'wx' });
    created = target;
    path = target;
  }
  return { config: loadConfig({ path, plugins: builtinPlugins }), created };
}

// server.close() waits for every connection, and a client's keep-alive connection that goes idle
// after its last response would hold shutdown open: drop idle ones as they appear, and cut the
// rest when the grace period is over.
async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  const started = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - started > graceMs) app.server.closeAllConnections();
    else app.server.closeIdleConnections();
  }, 50);
  try {
    await app.close();
  } finally {
    clearInterval(timer);
  }
}

/** A started instance: the service and, when `backend.http` is configured, its listening server. */
export interface Running {
  service: Service;
  app: FastifyInstance | null;
  url: string | null;
  stop(): Promise<void>;
}

/**
 * Starts Pipit: the service, then the HTTP backend when configured. `stop()` stops accepting,
 * lets in-flight requests finish, then stops plugins and closes the database.
 *
 * @example
 * const running = await startPipit(config);
 * await running.stop();
 */
export async function startPipit(
  config: LoadedConfig,
  opts: { log?: Logger } = {},
): Promise<Running> {
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const service = await createService(config, { log });
  const stopWatching = watchEventLoop(log);
  let app: FastifyInstance | null = null;
  let url: string | null = null;
  try {
    if (config.http) {
      app = await buildHttpApp(service);
      url = await app.listen({ port: config.http.port, host: config.http.bind_address });
      log.info({ url, device_id: config.deviceId }, `Pipit listening on ${url}`);
    } else {
      log.info(
        { device_id: config.deviceId },
        'Pipit started without the HTTP backend (no "backend.http" section)',
      );
    }
    service.scheduler.start();
    await service.events.emit('ApplicationStartedEvent', {});
  } catch (err) {
    stopWatching();
    await app?.close();
    await service.close();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    service,
    app,
    url,
    stop() {
      stopping ??= (async () => {
        service.scheduler.stop();
        await service.events.emit('ApplicationStoppedEvent', {}).catch(() => undefined);
        stopWatching();
        if (app) await closeGracefully(app, (config.http?.shutdown_grace_seconds ?? 10) * 1000);
        await service.close();
        log.info('Pipit stopped');
      })();
      return stopping;
    },
  };
}
