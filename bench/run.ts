// `npm run bench`: load benchmarks, each a ratio against a baseline measured in the same run as
// A/B/A/B pairs (the machines are shared and noisy): targets pinned to core 0, the load generator
// (wrk when installed, else autocannon with a warning; a lean WebSocket client in this process)
// to core 1. Options: BENCH_SECONDS (per leg, default 5), BENCH_PAIRS (A/B pairs, default 3).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchExecute } from './execute.ts';
import { benchRecording } from './recording.ts';
import { benchWs } from './ws.ts';
import { benchSpotify } from './spotify.ts';
import { benchHook } from './hook.ts';
import { benchMqtt } from './mqtt.ts';
import { benchCluster } from './cluster.ts';
import { benchOptions } from './options.ts';

const { seconds, pairs } = benchOptions();
const results: Record<string, unknown> = { date: new Date().toISOString(), seconds, pairs };

// The cluster goes first: its goals are absolute latencies (fan-out p99, what routing adds), which
// minutes of both cores at 100% slow down on a shared machine (its p99 read 67-88 ms at the end of
// a run, 32-50 ms on its own); the other benchmarks are same-run ratios, which that state moves
// less.
results.cluster = await benchCluster({ seconds });
results.execute = await benchExecute({ seconds, pairs, connections: 50 });
results.recording = await benchRecording({ seconds, pairs, connections: 50 });
results.hook = await benchHook({ seconds, pairs, connections: 50 });
results.ws = await benchWs({ seconds, pairs });
results.spotify = await benchSpotify({ rounds: pairs, latencyMs: 50, concurrency: 16 });
results.mqtt = await benchMqtt({ seconds, rounds: pairs, rate: 1000 });

const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `bench-${Date.now()}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`\nresults written to ${file}`);
