// `npm run bench`: load benchmarks, each reported as a ratio against a baseline measured in the same
// run (the machines are shared and noisy). Targets run pinned to core 0, this load generator to core 1.
// Options: BENCH_SECONDS (per measurement, default 5), BENCH_ROUNDS (alternations, default 3).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchExecute } from './execute.ts';
import { benchWs } from './ws.ts';
import { benchSpotify } from './spotify.ts';
import { benchHook } from './hook.ts';
import { benchMqtt } from './mqtt.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const results: Record<string, unknown> = { date: new Date().toISOString(), seconds, rounds };

results.execute = await benchExecute({ seconds, rounds, connections: 50 });
results.ws = await benchWs({ rounds });
results.spotify = await benchSpotify({ rounds, latencyMs: 50, concurrency: 8 });
results.hook = await benchHook({ seconds, rounds, connections: 50 });
results.mqtt = await benchMqtt({ seconds, rounds, rate: 1000 });

const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `bench-${Date.now()}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`\nresults written to ${file}`);
