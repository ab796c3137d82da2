import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { median, spawnTarget, stopTarget } from './lib.ts';

interface Target {
  pipitUrl: string;
  bareUrl: string;
  token: string;
}

/** Round-trip figures of one `/ws/requests` run. */
interface RoundTrips {
  rps: number;
  p50: number;
  p99: number;
}

/** Fan-out figures: publish-to-receipt latency over every delivery, and server CPU per delivery. */
interface FanOut {
  deliveries: number;
  missing: number;
  p50: number;
  p99: number;
  max: number;
  usPerDelivery: number;
}

const REQUEST_SECONDS = 2;
const FANOUT_SECONDS = 3;
const EVENTS_PER_SECOND = 20;

function quantile(sorted: Float64Array, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

async function openSockets(url: string, count: number, token?: string): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, () => {
      const ws = new WebSocket(url, {
        perMessageDeflate: false,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      });
      return once(ws, 'open').then(() => ws);
    });
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

async function closeSockets(sockets: WebSocket[]): Promise<void> {
  await Promise.all(
    sockets.map((ws) => {
      const closed = once(ws, 'close');
      ws.terminate();
      return closed;
    }),
  );
}

/** Closed-loop load: each connection keeps one utils.echo request in flight for `seconds`. */
async function roundTrips(url: string, connections: number, seconds: number, token?: string) {
  const sockets = await openSockets(url, connections, token);
  const latencies: number[] = [];
  let done = 0;
  let running = true;
  const body = (id: number) =>
    JSON.stringify({
      type: 'requests',
      action: 'utils.echo',
      args: { text: 'hello', n: 1 },
      id: String(id),
    });
  const started = performance.now();
  await Promise.all(
    sockets
      .map(
        (ws, k) =>
          new Promise<void>((resolve) => {
            let sentAt = 0;
            let seq = k * 1e9;
            const send = () => {
              sentAt = performance.now();
              ws.send(body(seq++));
            };
            ws.on('message', () => {
              latencies.push(performance.now() - sentAt);
              done++;
              if (running) send();
              else resolve();
            });
            send();
          }),
      )
      .concat([
        new Promise<void>((resolve) =>
          setTimeout(() => {
            running = false;
            resolve();
          }, seconds * 1000),
        ),
      ]),
  );
  const elapsed = (performance.now() - started) / 1000;
  await closeSockets(sockets);
  const sorted = Float64Array.from(latencies).sort();
  return { rps: done / elapsed, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
}

// utime + stime of a process, in microseconds (Linux; the target is a direct child via taskset's exec).
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return NaN;
  }
}

/** Publishes EVENTS_PER_SECOND events through one client and times their receipt by `subscribers`. */
async function fanOut(
  url: string,
  subscribers: number,
  pid: number,
  token?: string,
): Promise<FanOut> {
  const sockets = await openSockets(url, subscribers, token);
  const [publisher] = await openSockets(url, 1, token);
  const total = Math.round(FANOUT_SECONDS * EVENTS_PER_SECOND);
  const sentAt = new Float64Array(total);
  const latencies = new Float64Array(total * subscribers);
  let received = 0;
  for (const ws of sockets) {
    ws.on('message', (data) => {
      const now = performance.now();
      const seq = (JSON.parse((data as Buffer).toString()) as { args: { args: { seq: number } } })
        .args.args.seq;
      if (seq >= 0) latencies[received++] = now - sentAt[seq]!;
    });
  }
  const publish = (seq: number) =>
    publisher!.send(
      JSON.stringify({
        type: 'event',
        args: { type: 'CustomEvent', subtype: 'bench', args: { seq } },
      }),
    );
  for (let i = 0; i < 5; i++) publish(-1); // warm-up, not counted
  await new Promise((r) => setTimeout(r, 200));
  const cpuBefore = cpuMicros(pid);
  for (let seq = 0; seq < total; seq++) {
    sentAt[seq] = performance.now();
    publish(seq);
    await new Promise((r) => setTimeout(r, 1000 / EVENTS_PER_SECOND));
  }
  // Let the last event land (bounded).
  const deadline = performance.now() + 2000;
  while (received < total * subscribers && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 10));
  const cpu = cpuMicros(pid) - cpuBefore;
  await closeSockets([...sockets, publisher!]);
  const sorted = latencies.subarray(0, received).sort();
  return {
    deliveries: received,
    missing: total * subscribers - received,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: quantile(sorted, 1),
    // Every event also goes back to the publisher: (subscribers + 1) deliveries per event.
    usPerDelivery: cpu / (total * (subscribers + 1)),
  };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(8);

/**
 * `/ws/requests` round trips per second on 1 and 50 connections, and `/ws/events` fan-out latency
 * with 100 and 1000 subscribers at 20 events/s, each against a bare `ws` server doing the same work
 * in the same target process (pinned to core 0), measured in one run. Bounded to about 40 s.
 *
 * @example
 * results.ws = await benchWs({ rounds: 2 });
 */
export async function benchWs(opts: { rounds: number }): Promise<Record<string, unknown>> {
  const { child, info } = await spawnTarget<Target>(join(import.meta.dirname, 'ws-target.ts'), 0);
  const pid = child.pid!;
  const rounds = Math.max(1, Math.min(opts.rounds, 2));
  try {
    const requests: Record<string, { pipit: RoundTrips; bare: RoundTrips; ratio: number }> = {};
    await roundTrips(`${info.pipitUrl}/ws/requests`, 50, 1, info.token); // warm-up (JIT)
    await roundTrips(`${info.bareUrl}/requests`, 50, 1);
    for (const connections of [1, 50]) {
      const runs = { pipit: [] as RoundTrips[], bare: [] as RoundTrips[] };
      for (let i = 0; i < rounds; i++) {
        runs.bare.push(await roundTrips(`${info.bareUrl}/requests`, connections, REQUEST_SECONDS));
        runs.pipit.push(
          await roundTrips(
            `${info.pipitUrl}/ws/requests`,
            connections,
            REQUEST_SECONDS,
            info.token,
          ),
        );
      }
      const pick = (list: RoundTrips[]): RoundTrips => ({
        rps: median(list.map((f) => f.rps)),
        p50: median(list.map((f) => f.p50)),
        p99: median(list.map((f) => f.p99)),
      });
      const pipit = pick(runs.pipit);
      const bare = pick(runs.bare);
      requests[`connections_${connections}`] = { pipit, bare, ratio: pipit.rps / bare.rps };
    }

    const fanout: Record<string, { pipit: FanOut; bare: FanOut }> = {};
    for (const subscribers of [100, 1000]) {
      const bare = await fanOut(`${info.bareUrl}/events`, subscribers, pid);
      const pipit = await fanOut(`${info.pipitUrl}/ws/events`, subscribers, pid, info.token);
      fanout[`subscribers_${subscribers}`] = { pipit, bare };
    }

    console.log(
      '\n## /ws/requests (utils.echo, one request in flight per connection) vs a bare ws server',
    );
    console.log(
      `${'run'.padEnd(28)} ${'rt/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`,
    );
    for (const [key, r] of Object.entries(requests)) {
      console.log(
        `${`bare ws, ${key}`.padEnd(28)} ${fmt(r.bare.rps, 0)} ${fmt(r.bare.p50, 2)} ${fmt(r.bare.p99, 2)}`,
      );
      console.log(
        `${`pipit, ${key}`.padEnd(28)} ${fmt(r.pipit.rps, 0)} ${fmt(r.pipit.p50, 2)} ${fmt(r.pipit.p99, 2)}   ratio ${r.ratio.toFixed(2)} (goal >= 0.7)`,
      );
    }
    console.log(
      `\n## /ws/events fan-out at ${EVENTS_PER_SECOND} events/s for ${FANOUT_SECONDS} s, publish -> receipt`,
    );
    console.log(
      `${'run'.padEnd(28)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'us/deliv'.padStart(8)} missing`,
    );
    for (const [key, f] of Object.entries(fanout)) {
      for (const [who, x] of [
        ['bare ws', f.bare],
        ['pipit', f.pipit],
      ] as const) {
        console.log(
          `${`${who}, ${key}`.padEnd(28)} ${fmt(x.p50, 2)} ${fmt(x.p99, 2)} ${fmt(x.max, 2)} ${fmt(x.usPerDelivery, 2)} ${x.missing}`,
        );
      }
    }
    console.log(
      '(goal: pipit p99 < 50 ms with 1000 subscribers; us/deliv = target CPU per event per subscriber)',
    );
    return { requests, fanout };
  } finally {
    await stopTarget(child);
  }
}
