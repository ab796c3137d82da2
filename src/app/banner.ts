import { basename } from 'node:path';
import type { Logger } from '../core/logger.ts';
import { loopbackRedirectUri } from '../plugins/music/spotify/config.ts';
import type { Service } from './service.ts';

/** The address a person should open: the bind address, or localhost for a wildcard one. */
export function openAddress(bind: string, port: number): string {
  const host =
    bind === '0.0.0.0' || bind === '::' ? 'localhost' : bind.includes(':') ? `[${bind}]` : bind;
  return `http://${host}:${port}/`;
}

/**
 * The start-up banner, as info lines: where to open the UI (and to register the first user while
 * nobody has), the config file in use, and what loaded: scripts, procedures, hooks and crons with
 * each cron's next run.
 *
 * @example
 * logBanner(log, service, 8008);
 */
export function logBanner(log: Logger, service: Service, port: number | null): void {
  const { config } = service;
  const lines: string[] = [];
  if (config.http && port !== null) {
    const address = openAddress(config.http.bind_address, port);
    lines.push(
      service.auth.hasUsers()
        ? `open ${address}`
        : `open ${address} and register the first user there`,
    );
    const spotify = config.plugins.get('music.spotify')?.config as
      { redirect_uri?: string } | undefined;
    // The exact address to register in the Spotify app, which is not the one the UI is opened at:
    // Spotify accepts plain http only on a loopback IP literal.
    if (spotify)
      lines.push(
        `music.spotify: register ${spotify.redirect_uri ?? loopbackRedirectUri(port)} as a redirect URI in the Spotify app, then Connect in Settings → Integrations`,
      );
  } else {
    lines.push(
      'no "backend.http" section: no HTTP API or web UI; crons, hooks and "pipit run" work',
    );
  }
  lines.push(`config: ${config.path ?? '(none found: embedded defaults)'}`);
  lines.push(`workdir: ${config.workdir}`);
  const { files, failed } = service.scripts;
  lines.push(
    `scripts (${config.scriptsDir}): ${files.length ? files.map((f) => basename(f)).join(', ') : 'none'}` +
      (failed.length ? `; FAILED: ${failed.map((f) => basename(f.file)).join(', ')}` : ''),
  );
  const procedures = [...service.registry.procedures.keys()];
  lines.push(`procedures: ${procedures.length ? procedures.join(', ') : 'none'}`);
  const { hooks: registered } = service.events;
  const hooks = registered
    .list()
    .map((h) => (registered.isDisabled?.(h.name) ? `${h.name} (disabled)` : h.name));
  lines.push(`hooks: ${hooks.length ? hooks.join(', ') : 'none'}`);
  const crons = service.scheduler.list();
  lines.push(
    `crons: ${crons.length ? crons.map((c) => `${c.name} (${c.disabled ? 'disabled' : `next ${c.next ?? 'never'}`})`).join(', ') : 'none'}`,
  );
  for (const line of lines) log.info({ banner: true }, line);
}
