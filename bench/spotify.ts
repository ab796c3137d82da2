import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load.ts';
import { createLogger } from '../src/core/logger.ts';
import { forgetTotals } from '../src/plugins/music/spotify/playlist-totals.ts';
import type { SpotifyState } from '../src/plugins/music/spotify/state.ts';
import { builtinPlugins } from '../src/plugins/index.ts';
import { createService } from '../src/app/service.ts';
import { cpuMillis } from './cpu.ts';
import { median, spawnTarget, stopTarget } from './lib.ts';

/** One measured case: wall time and Web API requests, concurrent paging vs sequential. */
export interface SpotifyCase {
  name: string;
  items: number;
  requests: number;
  concurrentMs: number;
  /** The same, but as a first read: no playlist total known from before (see playlist-totals.ts). */
  coldMs: number;
  sequentialMs: number;
  /** Median of the per-pair speed-ups (sequential / concurrent), and their range. */
  speedup: number;
  speedupMin: number;
  speedupMax: number;
  /** Median of sequential / cold per pair. */
  coldSpeedup: number;
  /** This process's CPU per concurrent call (Pipit's client side: fetch, JSON, mapping). */
  clientCpuMs: number;
  /** The emulator's CPU per concurrent call (when it nears the wall time, it is the limit). */
  emulatorCpuMs: number;
}

interface EmulatorInfo {
  url: string;
  apiUrl: string;
  accountsUrl: string;
  clientId: string;
  clientSecret: string;
  bigPlaylistId: string;
}

const control = (info: EmulatorInfo, method: string, path: string, body?: unknown) =>
  fetch(`${info.url}/_emulator${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  }).then((r) => r.json() as Promise<unknown>);

/**
 * Multi-page reads against the emulator (in a child process pinned to core 0, as Spotify's servers
 * are elsewhere) with `latencyMs` injected per request: `get_playlist` on the 5,000-item playlist,
 * `get_playlists` limit 1000 and `search` limit 50, each with the configured paging concurrency
 * and with concurrency 1 (sequential paging), alternated `rounds` times in the same run.
 *
 * @example
 * const figures = await benchSpotify({ rounds: 3, latencyMs: 50, concurrency: 16 });
 */
export async function benchSpotify(opts: {
  rounds: number;
  latencyMs: number;
  concurrency: number;
}): Promise<{ latencyMs: number; concurrency: number; cases: SpotifyCase[] }> {
  const { child, info } = await spawnTarget<EmulatorInfo>(
    join(import.meta.dirname, 'spotify-target.ts'),
    0,
  );
  const dir = mkdtempSync(join(tmpdir(), 'pipit-bench-spotify-'));
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    [
      'workdir: ./data',
      'logging: {level: warn}',
      'music.spotify:',
      `  client_id: ${info.clientId}`,
      `  client_secret: ${info.clientSecret}`,
      '  redirect_uri: http://127.0.0.1:8008/spotify/auth_callback',
      `  api_url: ${info.apiUrl}`,
      `  auth_url: ${info.accountsUrl}`,
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
    await control(info, 'POST', '/faults', { path: '/v1/*', delayMs: opts.latencyMs });

    const cases: [string, string, Record<string, unknown>][] = [
      [
        'get_playlist (5,000 items)',
        'get_playlist',
        { playlist: `spotify:playlist:${info.bigPlaylistId}` },
      ],
      ['get_playlists limit 1000', 'get_playlists', { limit: 1000 }],
      ['search limit 50', 'search', { query: 'a', limit: 50 }],
    ];
    const results: SpotifyCase[] = [];
    for (const [name, action, args] of cases) {
      const run = async (concurrency: number, cold = false) => {
        Object.assign(state.config, { paging_concurrency: concurrency });
        if (cold) forgetTotals(state);
        await control(info, 'DELETE', '/requests');
        const cpu = process.cpuUsage();
        const emulatorCpu = cpuMillis(child.pid!);
        const started = performance.now();
        const { message } = await service.execute(
          { type: 'request', action: `music.spotify.${action}`, args },
          { transport: 'library' },
        );
        const ms = performance.now() - started;
        const used = process.cpuUsage(cpu);
        const emulatorMs = cpuMillis(child.pid!) - emulatorCpu;
        if (message.response.errors.length) throw new Error(message.response.errors.join('\n'));
        const output = message.response.output as unknown[] | { tracks: unknown[] };
        const requests = (await control(info, 'GET', '/requests?path=/v1/*')) as unknown[];
        return {
          ms,
          cpuMs: (used.user + used.system) / 1000,
          emulatorMs,
          items: Array.isArray(output) ? output.length : output.tracks.length,
          requests: requests.length,
        };
      };
      await run(opts.concurrency); // warm-up (JIT, connections)
      const sequential: number[] = [];
      const concurrent: number[] = [];
      const cold: number[] = [];
      const cpu: number[] = [];
      const emulatorCpu: number[] = [];
      let last = { items: 0, requests: 0 };
      for (let round = 0; round < opts.rounds; round++) {
        sequential.push((await run(1)).ms);
        cold.push((await run(opts.concurrency, true)).ms);
        const c = await run(opts.concurrency);
        concurrent.push(c.ms);
        cpu.push(c.cpuMs);
        emulatorCpu.push(c.emulatorMs);
        last = c;
      }
      const speedups = sequential.map((s, i) => s / concurrent[i]!);
      const coldSpeedups = sequential.map((s, i) => s / cold[i]!);
      results.push({
        name,
        items: last.items,
        requests: last.requests,
        concurrentMs: median(concurrent),
        coldMs: median(cold),
        sequentialMs: median(sequential),
        speedup: median(speedups),
        speedupMin: Math.min(...speedups),
        speedupMax: Math.max(...speedups),
        coldSpeedup: median(coldSpeedups),
        clientCpuMs: median(cpu),
        emulatorCpuMs: median(emulatorCpu),
      });
    }
    console.log(
      `\n## music.spotify multi-page reads (emulator on core 0, ${opts.latencyMs} ms latency per request, ${opts.rounds} rounds of sequential / first read / concurrent, medians; "first read" knows no playlist total from before)`,
    );
    console.log(
      `${'case'.padEnd(28)} ${'items'.padStart(6)} ${'requests'.padStart(9)} ${`concurrency ${opts.concurrency}`.padStart(16)} ${'first read'.padStart(11)} ${'sequential'.padStart(11)} ${'speed-up (spread)'.padStart(18)} ${'first read'.padStart(11)} ${'client CPU'.padStart(11)} ${'emulator CPU'.padStart(13)}`,
    );
    for (const c of results) {
      console.log(
        `${c.name.padEnd(28)} ${String(c.items).padStart(6)} ${String(c.requests).padStart(9)} ${`${c.concurrentMs.toFixed(0)} ms`.padStart(16)} ${`${c.coldMs.toFixed(0)} ms`.padStart(11)} ${`${c.sequentialMs.toFixed(0)} ms`.padStart(11)} ${`${c.speedup.toFixed(1)}x (${c.speedupMin.toFixed(1)}–${c.speedupMax.toFixed(1)})`.padStart(18)} ${`${c.coldSpeedup.toFixed(1)}x`.padStart(11)} ${`${c.clientCpuMs.toFixed(0)} ms`.padStart(11)} ${`${c.emulatorCpuMs.toFixed(0)} ms`.padStart(13)}`,
      );
    }
    return { latencyMs: opts.latencyMs, concurrency: opts.concurrency, cases: results };
  } finally {
    await service.close();
    await stopTarget(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node bench/spotify.ts` runs this benchmark alone (BENCH_PAIRS rounds, SPOTIFY_CONCURRENCY).
if (import.meta.main) {
  const { benchOptions } = await import('./options.ts');
  await benchSpotify({
    rounds: benchOptions().pairs,
    latencyMs: 50,
    concurrency: Number(process.env.SPOTIFY_CONCURRENCY ?? 16),
  });
}
