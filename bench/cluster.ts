// `npm run bench:cluster` (also part of `npm run bench`): three Pipit processes sharing a real
// redis-server on loopback, as the cluster tests run them.
// - /execute round trip, one request at a time on a kept-alive connection: utils.echo run here
//   vs. run on another instance (`target`), interleaved; p50/p99 and what routing adds.
// - Event fan-out: 1,000 /ws/events subscribers spread over the three instances, events published
//   on one at 20/s; publish -> receipt latency on every subscriber, p50/p99.
// - Routed request throughput: /ws/requests connections each keeping one request in flight.
// Goals (issue 15): routing adds <= 1 ms at p50; fan-out p99 < 50 ms. Everything shares this
// machine's cores (no pinning is possible for four servers), so the figures are conservative.
import { Agent, request } from 'node:http';
import { startCluster } from '../test/cluster/harness.ts';
import type { Member } from '../test/cluster/harness.ts';
import { benchOptions } from './options.ts';
import { LeanSocket } from './ws-client.ts';

const EVENTS_PER_SECOND = 20;
const SUBSCRIBERS = 1_000;
const THROUGHPUT_SOCKETS = 16;

function quantile(sorted: Float64Array, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

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

async function roundTrips(member: Member, seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const local = JSON.stringify({ type: 'request', action: 'utils.echo', args: { n: 1 } });
  const routed = JSON.stringify({
    type: 'request',
    action: 'utils.echo',
    args: { n: 1 },
    target: 'beta',
  });
  const times = { local: [] as number[], routed: [] as number[] };
  const timed = async (kind: 'local' | 'routed', body: string) => {
    const started = performance.now();
    const status = await post(agent, member, body);
    if (status !== 200) throw new Error(`${kind} /execute answered ${status}`);
    times[kind].push(performance.now() - started);
  };
  for (let i = 0; i < 200; i++) await timed(i % 2 ? 'local' : 'routed', i % 2 ? local : routed);
  times.local.length = times.routed.length = 0;
  // Alternating, so that both see the same machine load.
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    await timed('local', local);
    await timed('routed', routed);
  }
  agent.destroy();
  const l = summary(times.local);
  const r = summary(times.routed);
  return {
    local: l,
    routed: r,
    ratio_p50: round(r.p50 / l.p50),
    ratio_p99: round(r.p99 / l.p99),
    added_p50_ms: round(r.p50 - l.p50),
    added_p99_ms: round(r.p99 - l.p99),
  };
}

const SEQ = Buffer.from('"seq":');

// Read from the bytes: 20,000 frames a second arrive here, and this client shares the machine.
function seqOf(payload: Buffer): number {
  let i = payload.indexOf(SEQ);
  if (i < 0) return -1;
  let n = 0;
  for (i += SEQ.length; i < payload.length && payload[i]! >= 0x30 && payload[i]! <= 0x39; i++)
    n = n * 10 + payload[i]! - 0x30;
  return n;
}

async function fanOut(members: Member[], seconds: number) {
  const sockets: { ws: LeanSocket; on: string }[] = [];
  for (let i = 0; i < SUBSCRIBERS; i += 50) {
    const batch = Array.from({ length: Math.min(50, SUBSCRIBERS - i) }, async (_, j) => {
      const member = members[(i + j) % members.length]!;
      const ws = await LeanSocket.open(`${member.url.replace(/^http/, 'ws')}/ws/events`, {
        authorization: `Bearer ${member.token}`,
      });
      return { ws, on: member.name };
    });
    sockets.push(...(await Promise.all(batch)));
  }
  const total = Math.round(seconds * EVENTS_PER_SECOND);
  const sentAt = new Float64Array(total);
  const byInstance = new Map<string, number[]>(members.map((m) => [m.name, []]));
  let received = 0;
  for (const { ws, on } of sockets) {
    ws.wantPayload = true;
    const into = byInstance.get(on)!;
    ws.onFrame = (now, payload) => {
      const seq = seqOf(payload!);
      if (seq < 0 || seq >= total || !sentAt[seq]) return;
      into.push(now - sentAt[seq]);
      received++;
    };
  }
  const publisher = await LeanSocket.open(`${members[0]!.url.replace(/^http/, 'ws')}/ws/events`, {
    authorization: `Bearer ${members[0]!.token}`,
  });
  const frame = (seq: number) =>
    LeanSocket.frame(
      JSON.stringify({
        type: 'event',
        args: { type: 'CustomEvent', subtype: 'bench', args: { seq } },
      }),
    );
  for (let seq = 0; seq < total; seq++) {
    sentAt[seq] = performance.now();
    publisher.send(frame(seq));
    await new Promise((resolve) => setTimeout(resolve, 1000 / EVENTS_PER_SECOND));
  }
  const expected = total * SUBSCRIBERS;
  for (let waited = 0; received < expected && waited < 5_000; waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  for (const { ws } of sockets) ws.socket.destroy();
  publisher.socket.destroy();
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
export async function benchCluster(opts: { seconds: number }) {
  console.log('\n== cluster: three instances, one redis-server (loopback) ==');
  const cluster = await startCluster(['alpha', 'beta', 'gamma'], { quiet: true });
  try {
    const members = ['alpha', 'beta', 'gamma'].map((n) => cluster.members[n]!);
    const execute = await roundTrips(members[0]!, opts.seconds);
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
      fan_out_p99_ms: events.all.p99,
      fan_out_goal_met: events.all.p99 < 50,
    };
    console.log('goals (routed adds <= 1 ms p50; fan-out p99 < 50 ms):', verdict);
    return { execute, events, throughput: rps, verdict };
  } finally {
    await cluster.stop();
  }
}

if (import.meta.main) await benchCluster({ seconds: benchOptions().seconds });
