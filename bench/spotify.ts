import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load.ts';
import { createLogger } from '../src/core/logger.ts';
import type { SpotifyState } from '../src/plugins/music/spotify/state.ts';
import { builtinPlugins } from '../src/plugins/index.ts';
import { createService } from '../src/service.ts';
import { startSpotifyEmulator } from '../test/spotify-emulator/index.ts';
import { mapBounded } from '../src/plugins/music/spotify/timers.ts';
import { median } from './lib.ts';

/** One measured case: wall time and Web API requests, concurrent paging vs sequential. */
export interface SpotifyCase {
  name: string;
  items: number;
  requests: number;
  concurrentMs: number;
  sequentialMs: number;
  speedup: number;
}

/**
 * Multi-page reads against the emulator with `latencyMs` injected per request: `get_playlist` on
 * the 5,000-item playlist, `get_playlists` limit 1000 and `search` limit 50, each with the
 * configured paging concurrency and with concurrency 1 (sequential paging) in the same run.
 *
 * @example
 * const figures = await benchSpotify({ rounds: 3, latencyMs: 50, concurrency: 8 });
 */
export async function benchSpotify(opts: {
  rounds: number;
  latencyMs: number;
  concurrency: number;
}): Promise<{ latencyMs: number; concurrency: number; cases: SpotifyCase[] }> {
  const emu = await startSpotifyEmulator({
    app: { redirectUris: ['http://127.0.0.1/spotify/auth_callback'] },
  });
  const dir = mkdtempSync(join(tmpdir(), 'pipit-bench-spotify-'));
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    [
      'workdir: ./data',
      'music.spotify:',
      `  client_id: ${emu.clientId}`,
      `  client_secret: ${emu.clientSecret}`,
      '  redirect_uri: http://127.0.0.1:8008/spotify/auth_callback',
      `  api_url: ${emu.apiUrl}`,
      `  auth_url: ${emu.accountsUrl}`,
      '',
    ].join('\n'),
  );
  const service = await createService(loadConfig({ path: configPath, plugins: builtinPlugins }), {
    log: createLogger({ level: 'warn' }),
  });
  try {
    const state = service.registry.plugins.get('music.spotify')!.state as SpotifyState;
    // Authorize through the real flow (the emulator consents at once).
    const { url } = state.auth.authorizeUrl();
    const redirect = await fetch(url, { redirect: 'manual' });
    const back = new URL(redirect.headers.get('location')!);
    await state.auth.completeAuthorization(Object.fromEntries(back.searchParams));

    // Enough playlists for get_playlists limit 1000 to span 20 pages (45 are seeded).
    const { accessToken } = emu.control.mintToken({ scopes: ['playlist-modify-private'] });
    await mapBounded(
      Array.from({ length: 1000 - 45 }, (_, i) => i),
      16,
      (i) =>
        fetch(`${emu.apiUrl}/me/playlists`, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Bench #${i}`, public: false }),
        }).then((r) => r.text()),
    );
    emu.control.addFault({ path: '/v1/*', delayMs: opts.latencyMs });

    const cases: [string, string, Record<string, unknown>][] = [
      [
        'get_playlist (5,000 items)',
        'get_playlist',
        { playlist: `spotify:playlist:${emu.control.seed.bigPlaylistId}` },
      ],
      ['get_playlists limit 1000', 'get_playlists', { limit: 1000 }],
      ['search limit 50', 'search', { query: 'a', limit: 50 }],
    ];
    const results: SpotifyCase[] = [];
    for (const [name, action, args] of cases) {
      const times: Record<'concurrent' | 'sequential', number[]> = {
        concurrent: [],
        sequential: [],
      };
      let requests = 0;
      let items = 0;
      for (let round = 0; round < opts.rounds; round++) {
        for (const mode of ['sequential', 'concurrent'] as const) {
          Object.assign(state.config, {
            paging_concurrency: mode === 'concurrent' ? opts.concurrency : 1,
          });
          emu.control.clearRequests();
          const started = performance.now();
          const { message } = await service.execute(
            { type: 'request', action: `music.spotify.${action}`, args },
            { target: 'library' },
          );
          times[mode].push(performance.now() - started);
          if (message.response.errors.length) throw new Error(message.response.errors.join('\n'));
          const output = message.response.output as unknown[] | { tracks: unknown[] };
          items = Array.isArray(output) ? output.length : output.tracks.length;
          requests = emu.control.requests({ path: '/v1/*' }).length;
        }
      }
      const concurrentMs = median(times.concurrent);
      const sequentialMs = median(times.sequential);
      results.push({
        name,
        items,
        requests,
        concurrentMs,
        sequentialMs,
        speedup: sequentialMs / concurrentMs,
      });
    }
    console.log(
      `\nmusic.spotify multi-page reads (emulator, ${opts.latencyMs} ms latency per request, median of ${opts.rounds})`,
    );
    console.log(
      `${'case'.padEnd(28)} ${'items'.padStart(6)} ${'requests'.padStart(9)} ${`concurrency ${opts.concurrency}`.padStart(16)} ${'sequential'.padStart(12)} ${'speed-up'.padStart(9)}`,
    );
    for (const c of results) {
      console.log(
        `${c.name.padEnd(28)} ${String(c.items).padStart(6)} ${String(c.requests).padStart(9)} ${`${c.concurrentMs.toFixed(0)} ms`.padStart(16)} ${`${c.sequentialMs.toFixed(0)} ms`.padStart(12)} ${`${c.speedup.toFixed(1)}x`.padStart(9)}`,
      );
    }
    return { latencyMs: opts.latencyMs, concurrency: opts.concurrency, cases: results };
  } finally {
    await service.close();
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
