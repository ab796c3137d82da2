// `npm run bench:cluster` (also part of `npm run bench`): three Pipit processes sharing a real
// redis-server on loopback, as the cluster tests run them.
// - /execute round trip, one request at a time on a kept-alive connection: utils.echo run here
//   vs. run on another instance (`target`), interleaved with a bare Redis publish -> subscriber ->
//   publish back between this process and another (bench/redis-echo.ts): p50/p99, what routing
//   adds, and what it adds beyond the two hops through Redis themselves.
// - Event fan-out: 1,000 /ws/events subscribers spread over the three instances, events published
//   on one at 20/s; publish -> receipt latency on every subscriber, p50/p99, the subscribers read
//   by two threads (one reading all 1,000 sockets made the last wait for the other 999).
// - Routed request throughput: /ws/requests connections each keeping one request in flight.
// Goals: routing adds <= 1 ms at p50 (<= 0.3 ms in round three); fan-out p99 < 50 ms. Everything shares this
// machine's cores (no pinning is possible for four servers), so the figures are conservative.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { startCluster } from '../test/cluster/harness.ts';
import type { Member } from '../test/cluster/harness.ts';
import { onAllCores, quantile } from './lib.ts';
import { benchOptions } from './options.ts';
import { LeanSocket } from './ws-client.ts';

const EVENTS_PER_SECOND = 20;
const SUBSCRIBERS = 1_000;
const THROUGHPUT_SOCKETS = 16;

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function summary(latencies: number[]): { p50: number; p99: number; n: number } {
  const sorted = Float64Array.from(latencies).sort();
  return {
    p50: round(quantile(sorted, 0.5)),
    p99: round(quantile(sorted, 0.99)),
    n: sorted.length,
  };
}

// One POST /execute on a kept-alive connection; resolves with the status.
function post(agent: Agent, member: Member, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${member.url}/execute`);
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${member.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * The bare Redis pub/sub round trip between this process and another one (bench/redis-echo.ts):
 * the two process hops a routed request adds, with none of Pipit's work. Returns one round trip,
 * timed by the caller, and what stops the echo process.
 */
async function redisPingPong(url: string) {
  const echo = spawn(process.execPath, [join(import.meta.dirname, 'redis-echo.ts'), url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await once(createInterface({ input: echo.stdout }), 'line');
  const sub = new Redis(url);
  const pub = new Redis(url);
  let answered: () => void = () => undefined;
  sub.on('message', () => answered());
  await sub.subscribe('bench:pong');
  // About the size of a sealed request for utils.echo.
  const message = 'x'.repeat(600);
  return {
    once: () =>
      new Promise<number>((resolve) => {
        answered = () => resolve(200);
        void pub.publish('bench:ping', message);
      }),
    async stop() {
      sub.disconnect();
      pub.disconnect();
      echo.stdin.end();
      await once(echo, 'exit');
    },
  };
}

async function roundTrips(member: Member, seconds: number, redisUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const local = JSON.stringify({ type: 'request', action: 'utils.echo', args: { n: 1 } });
  const routed = JSON.stringify({
    type: 'request',
    action: 'utils.echo',
    args: { n: 1 },
    target: 'beta',
  });
  const pingPong = await redisPingPong(redisUrl);
  const times = { local: [] as number[], routed: [] as number[], redis: [] as number[] };
  const timed = async (kind: keyof typeof times, call: () => Promise<number>) => {
    const started = performance.now();
    const status = await call();
    if (status !== 200) throw new Error(`${kind} /execute answered ${status}`);
    times[kind].push(performance.now() - started);
  };
  const legs = {
    local: () => post(agent, member, local),
    routed: () => post(agent, member, routed),
    redis: pingPong.once,
  };
  for (let i = 0; i < 100; i++) for (const kind of keysOf(legs)) await timed(kind, legs[kind]);
  times.local.length = times.routed.length = times.redis.length = 0;
  // Alternating, so that all three see the same machine load.
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) for (const kind of keysOf(legs)) await timed(kind, legs[kind]);
  agent.destroy();
  await pingPong.stop();
  const l = summary(times.local);
  const r = summary(times.routed);
  const floor = summary(times.redis);
  return {
    local: l,
    routed: r,
    bare_redis_round_trip: floor,
    ratio_p50: round(r.p50 / l.p50),
    ratio_p99: round(r.p99 / l.p99),
    added_p50_ms: round(r.p50 - l.p50),
    added_p99_ms: round(r.p99 - l.p99),
    // What routing adds beyond the two hops through Redis themselves.
    added_over_redis_p50_ms: round(r.p50 - l.p50 - floor.p50),
  };
}

const keysOf = <T extends object>(o: T) => Object.keys(o) as (keyof T)[];

/** Threads reading the subscribers' sockets (one per core of this machine, at most). */
const SUBSCRIBER_THREADS = 2;

// A subscriber thread's answer (bench/fanout-worker.ts).
interface ThreadReport {
  ready?: boolean;
  received: number;
  byInstance?: Record<string, number[]>;
}

function ask(worker: Worker, message: 'count' | 'stop'): Promise<ThreadReport> {
  const answer = once(worker, 'message') as Promise<[ThreadReport]>;
  worker.postMessage(message);
  return answer.then(([report]) => report);
}

// The subscribers are read by threads of their own (see fanout-worker.ts), each event carries its
// wall-clock send time, and each arrival is timed against it.
async function fanOut(members: Member[], seconds: number) {
  const targets = Array.from({ length: SUBSCRIBERS }, (_, i) => {
    const member = members[i % members.length]!;
    const url = `${member.url.replace(/^http/, 'ws')}/ws/events`;
    return { url, token: member.token, name: member.name };
  });
  const workers = Array.from({ length: SUBSCRIBER_THREADS }, (_, t) => {
    const share = targets.filter((_, i) => i % SUBSCRIBER_THREADS === t);
    return new Worker(new URL('./fanout-worker.ts', import.meta.url), {
      workerData: { targets: share },
      execArgv: [],
    });
  });
  await Promise.all(workers.map((w) => once(w, 'message')));
  const publisher = await LeanSocket.open(`${members[0]!.url.replace(/^http/, 'ws')}/ws/events`, {
    authorization: `Bearer ${members[0]!.token}`,
  });
  const total = Math.round(seconds * EVENTS_PER_SECOND);
  for (let seq = 0; seq < total; seq++) {
    const sent = performance.timeOrigin + performance.now();
    publisher.send(
      LeanSocket.frame(
        JSON.stringify({
          type: 'event',
          args: { type: 'CustomEvent', subtype: 'bench', args: { seq, sent } },
        }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / EVENTS_PER_SECOND));
  }
  const expected = total * SUBSCRIBERS;
  const count = async () =>
    (await Promise.all(workers.map((w) => ask(w, 'count')))).reduce((n, r) => n + r.received, 0);
  for (let waited = 0; (await count()) < expected && waited < 5_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const reports = await Promise.all(workers.map((w) => ask(w, 'stop')));
  publisher.socket.destroy();
  const byInstance = new Map<string, number[]>(members.map((m) => [m.name, []]));
  for (const report of reports)
    for (const [name, latencies] of Object.entries(report.byInstance ?? {}))
      byInstance.get(name)?.push(...latencies);
  const received = reports.reduce((n, r) => n + r.received, 0);
  const all = [...byInstance.values()].flat();
  return {
    subscribers: SUBSCRIBERS,
    events: total,
    delivered: `${received}/${expected}`,
    all: summary(all),
    ...Object.fromEntries(
      [...byInstance].map(([name, lat]) => [
        name === members[0]!.name ? `${name} (publisher's, local)` : `${name} (through Redis)`,
        summary(lat),
      ]),
    ),
  };
}

async function throughput(member: Member, seconds: number, target: string | undefined) {
  const frame = LeanSocket.frame(
    JSON.stringify({
      type: 'requests',
      action: 'utils.echo',
      args: { n: 1 },
      ...(target ? { target } : {}),
    }),
  );
  const sockets = await Promise.all(
    Array.from({ length: THROUGHPUT_SOCKETS }, () =>
      LeanSocket.open(`${member.url.replace(/^http/, 'ws')}/ws/requests`, {
        authorization: `Bearer ${member.token}`,
      }),
    ),
  );
  let done = 0;
  let running = true;
  for (const ws of sockets) {
    ws.onFrame = () => {
      done++;
      if (running) ws.send(frame);
    };
    ws.send(frame);
  }
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  for (const ws of sockets) ws.socket.destroy();
  return Math.round(done / elapsed);
}

/**
 * Runs the cluster benchmark and returns its figures (printed as it goes).
 *
 * @example
 * const figures = await benchCluster({ seconds: 5 });
 */
export function benchCluster(opts: { seconds: number }) {
  // Four servers and the generator share the machine's cores (`npm run bench` pins itself to one).
  return onAllCores(() => clusterRuns(opts));
}

async function clusterRuns(opts: { seconds: number }) {
  console.log('\n== cluster: three instances, one redis-server (loopback) ==');
  // Every subscriber connects from 127.0.0.1: a third of them on one instance is over the default
  // per-address cap (256).
  const cluster = await startCluster(['alpha', 'beta', 'gamma'], {
    quiet: true,
    http: [`max_connections_per_address: ${SUBSCRIBERS}`],
  });
  try {
    const members = ['alpha', 'beta', 'gamma'].map((n) => cluster.members[n]!);
    const execute = await roundTrips(members[0]!, opts.seconds, cluster.redis.url);
    console.log('/execute round trip (ms), local vs routed to another instance:', execute);
    const events = await fanOut(members, opts.seconds);
    console.log(`event fan-out to ${SUBSCRIBERS} subscribers on 3 instances (ms):`, events);
    const local = await throughput(members[0]!, opts.seconds, undefined);
    const routed = await throughput(members[0]!, opts.seconds, 'beta');
    const rps = { local, routed, ratio: round(routed / local), connections: THROUGHPUT_SOCKETS };
    console.log('/ws/requests throughput (req/s), local vs routed:', rps);
    const verdict = {
      routed_adds_p50_ms: execute.added_p50_ms,
      routed_goal_met: execute.added_p50_ms <= 1,
      routed_round_three_goal_met: execute.added_p50_ms <= 0.3,
      bare_redis_round_trip_p50_ms: execute.bare_redis_round_trip.p50,
      fan_out_p99_ms: events.all.p99,
      fan_out_goal_met: events.all.p99 < 50,
    };
    console.log(
      'goals (routed adds <= 1 ms p50, round three <= 0.3 ms; fan-out p99 < 50 ms):',
      verdict,
    );
    return { execute, events, throughput: rps, verdict };
  } finally {
    await cluster.stop();
  }
}

if (import.meta.main) await benchCluster({ seconds: benchOptions().seconds });
