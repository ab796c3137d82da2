import { join } from 'node:path';
import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { noDelay } from '../src/plugins/mqtt/connection.ts';
import { startBroker } from '../test/plugins/mqtt/broker.ts';
import { median, spawnTarget, stopTarget } from './lib.ts';

/** One run's latency figures. */
export interface LatencyFigures {
  /** Messages per second actually sent. */
  rate: number;
  sent: number;
  received: number;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Publishes `{i, t}` messages to `prefix/in` at `rate` per second for `seconds`, and times each
 * answer on `prefix/out` (same clock: this process). The first second is a warm-up and not counted.
 */
async function measure(
  client: MqttClient,
  prefix: string,
  rate: number,
  seconds: number,
): Promise<LatencyFigures> {
  const latencies: number[] = [];
  const warmupUntil = 1000;
  let received = 0;
  const onMessage = (topic: string, payload: Buffer) => {
    if (topic !== `${prefix}/out`) return;
    const { t } = JSON.parse(payload.toString()) as { t: number };
    received++;
    if (t >= started + warmupUntil) latencies.push(performance.now() - t);
  };
  client.on('message', onMessage);
  await client.subscribeAsync(`${prefix}/out`);
  const started = performance.now();
  const total = Math.round(rate * (seconds + 1));
  let sent = 0;
  // Paced by elapsed time (not by a fixed interval) so the rate holds when timers run late.
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    for (; sent < due; sent++) {
      client.publish(`${prefix}/in`, JSON.stringify({ i: sent, t: performance.now() }));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const elapsed = (performance.now() - started) / 1000;
  // Let the stragglers arrive.
  const drainUntil = performance.now() + 2000;
  while (received < sent && performance.now() < drainUntil) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  client.off('message', onMessage);
  await client.unsubscribeAsync(`${prefix}/out`);
  latencies.sort((a, b) => a - b);
  return {
    rate: sent / elapsed,
    sent,
    received,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
  };
}

function line(label: string, f: LatencyFigures): string {
  return `${label.padEnd(40)} ${f.rate.toFixed(0).padStart(6)} msg/s   p50 ${f.p50.toFixed(2).padStart(6)} ms   p99 ${f.p99.toFixed(2).padStart(6)} ms   max ${f.max.toFixed(1).padStart(6)} ms   lost ${f.sent - f.received}`;
}

function summarize(list: LatencyFigures[]): LatencyFigures {
  const pick = (k: keyof LatencyFigures) => median(list.map((f) => f[k]));
  return {
    rate: pick('rate'),
    sent: list.reduce((n, f) => n + f.sent, 0),
    received: list.reduce((n, f) => n + f.received, 0),
    p50: pick('p50'),
    p99: pick('p99'),
    max: Math.max(...list.map((f) => f.max)),
  };
}

/**
 * MQTT message -> event hook -> action latency at `rate` messages per second, against a real
 * mosquitto: Pipit's hook calls mqtt.publish to answer each message; the baseline is a bare MQTT.js
 * client answering by hand in the same target process. The time measured is the round trip from
 * this process through the broker, the target and the broker again (QoS 0 both ways).
 *
 * @example
 * await benchMqtt({ seconds: 5, rounds: 3, rate: 1000 });
 */
export async function benchMqtt(opts: {
  seconds: number;
  rounds: number;
  rate: number;
}): Promise<Record<string, unknown>> {
  const broker = await startBroker();
  process.env.PIPIT_BENCH_MQTT_PORT = String(broker.port);
  const { child } = await spawnTarget<{ ready: boolean }>(
    join(import.meta.dirname, 'mqtt-target.ts'),
    0,
  );
  delete process.env.PIPIT_BENCH_MQTT_PORT;
  const client = await mqtt.connectAsync(broker.url, { clientId: 'bench-load' });
  noDelay(client);
  try {
    const runs = { bare: [] as LatencyFigures[], pipit: [] as LatencyFigures[] };
    await measure(client, 'bench/pipit', opts.rate, 1);
    await measure(client, 'bench/bare', opts.rate, 1);
    for (let i = 0; i < opts.rounds; i++) {
      runs.pipit.push(await measure(client, 'bench/pipit', opts.rate, opts.seconds));
      runs.bare.push(await measure(client, 'bench/bare', opts.rate, opts.seconds));
    }
    const bare = summarize(runs.bare);
    const pipit = summarize(runs.pipit);
    console.log(
      `\n## MQTT message -> hook -> mqtt.publish, ${opts.rate} msg/s (round trip through mosquitto)`,
    );
    console.log(line('bare MQTT.js echo', bare));
    console.log(line('pipit hook -> mqtt.publish', pipit));
    return { rate: opts.rate, bare, pipit, runs };
  } finally {
    await client.endAsync();
    await stopTarget(child);
    await broker.stop();
  }
}

// `node bench/mqtt.ts` runs this benchmark alone.
if (import.meta.main) {
  await benchMqtt({
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    rounds: Number(process.env.BENCH_ROUNDS ?? 3),
    rate: Number(process.env.BENCH_MQTT_RATE ?? 1000),
  });
}
