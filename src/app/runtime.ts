import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_CONFIG_YAML } from '../config/default-config.ts';
import { loadConfig } from '../config/load.ts';
import type { LoadedConfig } from '../config/load.ts';
import { findConfig, userConfigPath } from '../config/paths.ts';
import { logBanner } from './banner.ts';
import { startControlServer } from '../control/server.ts';
import { PipitError } from '../core/errors.ts';
import { createLogger } from '../core/logger.ts';
import { watchEventLoop } from '../core/loop-monitor.ts';
import type { Logger } from '../core/logger.ts';
import { pluginCatalog, pluginPackages } from '../plugins/catalog.ts';
import { createService } from './service.ts';
import type { Service } from './service.ts';
import { lockWorkdir } from '../store/workdir-lock.ts';

/**
 * Finds and loads the configuration (in {@link findConfig}'s order). With `writeDefault`, a missing
 * file is created from the commented default first (at the explicit path, else the user config
 * path).
 *
 * @example
 * const { config, created } = resolveConfig({ explicit: undefined, writeDefault: true });
 */
export function resolveConfig(opts: {
  explicit?: string | undefined;
  writeDefault?: boolean;
  /** See loadConfig's `unsetEnv`. */
  unsetEnv?: string;
}): {
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
  // Plugins are named, not loaded: createService loads the enabled ones and checks their sections.
  const unset = opts.unsetEnv === undefined ? {} : { unsetEnv: opts.unsetEnv };
  return {
    config: loadConfig({ path, plugins: pluginCatalog, packages: pluginPackages, ...unset }),
    created,
  };
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

// A port that is taken (or privileged) is a configuration problem: one line naming the port and
// the key to change, exit status 78, instead of a stack trace.
async function listen(
  app: FastifyInstance,
  port: number,
  host: string,
  configPath: string | null,
): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = configPath ? ` in ${configPath}` : '';
    if (code === 'EADDRINUSE')
      throw new PipitError(
        'CONFIG_INVALID',
        `port ${port} on ${host} is already in use (another Pipit, or another program): stop it, or set backend.http.port to a free port${where}`,
        { cause: err },
      );
    if (code === 'EACCES')
      throw new PipitError(
        'CONFIG_INVALID',
        `not allowed to listen on port ${port}: ports below 1024 need privileges; set backend.http.port to 1024 or above${where}`,
        { cause: err },
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new PipitError(
        'CONFIG_INVALID',
        `cannot listen on ${host}: it is not an address of this machine; fix backend.http.bind_address${where}`,
        { cause: err },
      );
    throw err;
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
  const log = opts.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  mkdirSync(config.workdir, { recursive: true, mode: 0o700 });
  const unlock = lockWorkdir(config.workdir);
  let service: Service;
  try {
    service = await createService(config, { log, cluster: true });
  } catch (err) {
    unlock();
    throw err;
  }
  const stopWatching = watchEventLoop(log);
  let control: Awaited<ReturnType<typeof startControlServer>> | undefined;
  // Without the HTTP backend nothing else keeps the process alive (cron timers are unref'd):
  // it runs until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  let app: FastifyInstance | null = null;
  let url: string | null = null;
  try {
    control = await startControlServer(service);
    if (config.http) {
      // Imported here: one-off CLI commands (which share this module) never load the HTTP stack.
      const { buildHttpApp } = await import('../http/server.ts');
      app = await buildHttpApp(service);
      url = await listen(app, config.http.port, config.http.bind_address, config.path);
      log.info({ url, device_id: config.deviceId }, `Pipit listening on ${url}`);
    } else {
      log.info(
        { device_id: config.deviceId },
        'Pipit started without the HTTP backend (no "backend.http" section): it keeps running for crons and hooks',
      );
    }
    service.scheduler.start();
    logBanner(log, service, app ? (app.server.address() as AddressInfo).port : null);
    await service.events.emit('ApplicationStartedEvent', {});
  } catch (err) {
    clearInterval(keepAlive);
    await control?.close();
    stopWatching();
    await app?.close();
    await service.close();
    unlock();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    service,
    app,
    url,
    stop() {
      stopping ??= (async () => {
        // Each step runs even when an earlier one failed: a failed HTTP close must still close the
        // database and release the workdir lock. The first failure is reported at the end.
        const failures: unknown[] = [];
        const step = async (what: string, fn: () => Promise<void> | void) => {
          try {
            await fn();
          } catch (err) {
            log.error({ err }, `shutdown: ${what} failed`);
            failures.push(err);
          }
        };
        service.scheduler.stop();
        await service.events.emit('ApplicationStoppedEvent', {}).catch(() => undefined);
        stopWatching();
        await step('closing the control socket', () => control?.close());
        const server = app;
        if (server) {
          const graceMs = (config.http?.shutdown_grace_seconds ?? 10) * 1000;
          await step('closing the HTTP server', () => closeGracefully(server, graceMs));
        }
        await step('stopping the service', () => service.close());
        clearInterval(keepAlive);
        unlock();
        if (failures.length) throw failures[0];
        log.info('Pipit stopped');
      })();
      return stopping;
    },
  };
}
