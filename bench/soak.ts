// `npm run soak -- --minutes N`: a Pipit child (temp workdir and config, a registered user and a
// token) under mixed, bounded load on 127.0.0.1 for N minutes — POST /execute (utils.echo,
// variable.set/get), GET /auth/status, POST /hook/soak, /ws/requests frames, /ws/events publishers
// and subscribers that come and go, token issue and revocation — while the server's RSS is sampled
// from /proc/<pid>/status. Prints RSS over time, its value after the warm-up and at the end, and
// the growth; exits 1 when the growth passes the threshold, the server dies, or answers go wrong.
//
// Options: --minutes 10, --warmup-minutes (default 20% of the run, at most 1), --threshold 20 (%),
// --rate 400 (requests per second, HTTP and WebSocket together), --sample-seconds (default 5).
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { PipitChild, PASSWORD, readRss } from '../tools/fuzz/pipit-child.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'warmup-minutes': { type: 'string' },
    threshold: { type: 'string', default: '20' },
    rate: { type: 'string', default: '400' },
    'sample-seconds': { type: 'string' },
  },
});
const runMs = Number(values.minutes) * 60_000;
const warmupMs = values['warmup-minutes']
  ? Number(values['warmup-minutes']) * 60_000
  : Math.min(60_000, runMs * 0.2);
const thresholdPct = Number(values.threshold);
const rate = Number(values.rate);
const sampleMs = values['sample-seconds']
  ? Number(values['sample-seconds']) * 1000
  : Math.max(1000, Math.min(5000, runMs / 30));
if (![runMs, warmupMs, thresholdPct, rate, sampleMs].every((n) => Number.isFinite(n) && n > 0))
  throw new Error('usage: npm run soak -- --minutes N [--threshold PCT] [--rate N]');

const SOAK_YAML = `event.hook.Soak:
  if: {type: WebhookEvent, hook: soak}
  then:
    - action: utils.echo
      args: {ok: true}
`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers by operation: how many were right, how many were not (with the first few). */
const stats = new Map<string, { ok: number; bad: number }>();
const badSamples: string[] = [];
function record(op: string, ok: boolean, detail?: string): void {
  const s = stats.get(op) ?? { ok: 0, bad: 0 };
  if (ok) s.ok++;
  else {
    s.bad++;
    if (badSamples.length < 10) badSamples.push(`${op}: ${detail ?? '?'}`);
  }
  stats.set(op, s);
}
const totalOps = () => [...stats.values()].reduce((n, s) => n + s.ok + s.bad, 0);
const totalBad = () => [...stats.values()].reduce((n, s) => n + s.bad, 0);

/** Spaces calls `1000 / perSecond` ms apart (shared by every worker that uses it). */
function pacer(perSecond: number): () => Promise<void> {
  let next = Date.now();
  return async () => {
    const now = Date.now();
    next = Math.max(next + 1000 / perSecond, now);
    if (next > now) await sleep(next - now);
  };
}

const pipit = new PipitChild({ extraYaml: SOAK_YAML });
let stopping = false;
const deadline = () => stopping || Date.now() >= endAt;
let endAt = Infinity;

async function httpWorker(base: string, token: string, pace: () => Promise<void>, id: number) {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; !deadline(); i++) {
    await pace();
    if (deadline()) return;
    const pick = (i * 7 + id) % 20;
    try {
      if (pick < 8) {
        const res = await fetch(`${base}/execute`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ type: 'request', action: 'utils.echo', args: { i, id } }),
        });
        const body = (await res.json()) as { response: { output: { i?: number } } };
        record(
          'execute utils.echo',
          res.status === 200 && body.response.output.i === i,
          `${res.status}`,
        );
      } else if (pick < 12) {
        const res = await fetch(`${base}/execute`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            type: 'request',
            action: 'variable.set',
            args: { [`soak_${i % 200}`]: { i, at: Date.now(), pad: 'x'.repeat(i % 300) } },
          }),
        });
        await res.arrayBuffer();
        record('execute variable.set', res.status === 200, `${res.status}`);
      } else if (pick < 15) {
        const res = await fetch(`${base}/execute`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            type: 'request',
            action: 'variable.get',
            args: { name: `soak_${i % 200}` },
          }),
        });
        await res.arrayBuffer();
        record('execute variable.get', res.status === 200, `${res.status}`);
      } else if (pick < 17) {
        const res = await fetch(`${base}/auth/status`);
        await res.arrayBuffer();
        record('GET /auth/status', res.status === 200, `${res.status}`);
      } else {
        const res = await fetch(`${base}/hook/soak?i=${i}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ i, event: 'soak' }),
        });
        const text = await res.text();
        record(
          'POST /hook/soak',
          res.status === 200 && text === '{"ok":true}',
          `${res.status} ${text.slice(0, 80)}`,
        );
      }
    } catch (err) {
      record('http transport', false, (err as Error).message);
    }
  }
}

/** Opens a socket and resolves once it is open. */
function openSocket(url: string, token: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/**
 * Opens a socket; on failure records `<path> connect` as failed, waits 500 ms and resolves with
 * undefined (the caller tries again).
 */
async function openOrWait(url: string, token: string): Promise<WebSocket | undefined> {
  try {
    return await openSocket(url, token);
  } catch (err) {
    record(`${new URL(url).pathname.slice(1)} connect`, false, (err as Error).message);
    await sleep(500);
    return undefined;
  }
}

/** /ws/requests: frames in a closed loop, reconnecting every 2,000 frames. */
async function wsRequestsWorker(wsUrl: string, token: string, pace: () => Promise<void>) {
  while (!deadline()) {
    const ws = await openOrWait(`${wsUrl}/ws/requests`, token);
    if (!ws) continue;
    for (let i = 0; i < 2000 && !deadline() && ws.readyState === WebSocket.OPEN; i++) {
      await pace();
      const id = `s${i}`;
      const answer = new Promise<string>((resolve) => {
        const onMessage = (data: Buffer) => {
          ws.off('close', onClose);
          resolve(data.toString());
        };
        const onClose = () => {
          ws.off('message', onMessage);
          resolve('closed');
        };
        ws.once('message', onMessage);
        ws.once('close', onClose);
      });
      ws.send(JSON.stringify({ type: 'request', action: 'utils.echo', args: { i }, id }));
      const text = await answer;
      record(
        'ws/requests frame',
        text.includes(`"id":"${id}"`) && text.includes('"errors":[]'),
        text.slice(0, 80),
      );
    }
    ws.close();
  }
}

/** /ws/events: one publisher at `perSecond`, and subscribers that come and go. */
async function eventsLoad(wsUrl: string, token: string, perSecond: number, subscribers: number) {
  let published = 0;
  const publisher = async () => {
    const pace = pacer(perSecond);
    while (!deadline()) {
      const ws = await openOrWait(`${wsUrl}/ws/events`, token);
      if (!ws) continue;
      ws.on('message', () => undefined);
      while (!deadline() && ws.readyState === WebSocket.OPEN) {
        await pace();
        ws.send(
          JSON.stringify({
            type: 'event',
            args: { type: 'CustomEvent', subtype: 'soak', args: { n: published++ } },
          }),
        );
        record('ws/events publish', true);
      }
      ws.close();
    }
  };
  // Each subscriber lives 1 to 5 s, subscribed to CustomEvent, and must have received events.
  const subscriber = async (slot: number) => {
    for (let life = 0; !deadline(); life++) {
      const ws = await openOrWait(`${wsUrl}/ws/events`, token);
      if (!ws) continue;
      let received = 0;
      let closedByServer = false;
      ws.on('message', (data: Buffer) => {
        if (data.toString().includes('"subtype":"soak"')) received++;
      });
      ws.on('close', () => (closedByServer = true));
      ws.send('{"type":"subscribe","events":["CustomEvent"]}');
      await sleep(1000 + ((slot * 977 + life * 613) % 4000));
      const ok = received > 0 && !closedByServer;
      record(
        'ws/events subscriber',
        ok || deadline(),
        `received ${received}, closed ${closedByServer}`,
      );
      ws.close();
    }
  };
  await Promise.all([publisher(), ...Array.from({ length: subscribers }, (_, i) => subscriber(i))]);
}

/** Every 15 s: a token issued (password re-entered), used, revoked, and refused after. */
async function tokenChurn(base: string, token: string) {
  while (!deadline()) {
    try {
      const issued = await fetch(`${base}/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ password: PASSWORD, name: 'soak-churn' }),
      });
      const { token: fresh, id } = (await issued.json()) as { token: string; id: string };
      const use = () =>
        fetch(`${base}/execute`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fresh}`, 'content-type': 'application/json' },
          body: '{"type":"request","action":"utils.echo"}',
        }).then(async (r) => (await r.arrayBuffer(), r.status));
      const before = await use();
      const revoked = await fetch(`${base}/tokens/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      await revoked.arrayBuffer();
      const after = await use();
      record(
        'token issue/use/revoke',
        issued.status === 201 && before === 200 && revoked.status === 200 && after === 401,
        `${issued.status} ${before} ${revoked.status} ${after}`,
      );
    } catch (err) {
      record('token issue/use/revoke', false, (err as Error).message);
    }
    for (let waited = 0; waited < 15_000 && !deadline(); waited += 250) await sleep(250);
  }
}

interface Sample {
  t: number;
  rss: number;
  ops: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Least-squares slope of RSS over time, in bytes per minute. */
function slopePerMinute(samples: Sample[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.t, 0) / n;
  const my = samples.reduce((a, s) => a + s.rss, 0) / n;
  const num = samples.reduce((a, s) => a + (s.t - mx) * (s.rss - my), 0);
  const den = samples.reduce((a, s) => a + (s.t - mx) ** 2, 0);
  return den ? (num / den) * 60_000 : 0;
}

console.log(
  `pipit soak: ${values.minutes} min (warm-up ${(warmupMs / 1000).toFixed(0)} s), ~${rate} req/s, RSS every ${(sampleMs / 1000).toFixed(1)} s, threshold +${thresholdPct}%`,
);
await pipit.start();
let failed = false;
try {
  const { token } = await pipit.registerUser();
  const pid = pipit.pid!;
  if (readRss(pid) === undefined) throw new Error(`cannot read /proc/${pid}/status (Linux only)`);
  console.log(`server pid ${pid} on ${pipit.url} (workdir ${pipit.dir})\n`);

  const started = Date.now();
  endAt = started + runMs;
  const samples: Sample[] = [];
  const httpPace = pacer(rate * 0.6);
  const wsPace = pacer(rate * 0.4);
  const load = Promise.all([
    ...Array.from({ length: 4 }, (_, i) => httpWorker(pipit.url, token, httpPace, i)),
    wsRequestsWorker(pipit.wsUrl, token, wsPace),
    wsRequestsWorker(pipit.wsUrl, token, wsPace),
    eventsLoad(pipit.wsUrl, token, 20, 10),
    tokenChurn(pipit.url, token),
  ]);

  let lastOps = 0;
  let lastT = 0;
  while (Date.now() < endAt) {
    await sleep(Math.min(sampleMs, Math.max(0, endAt - Date.now())));
    if (!pipit.alive()) {
      console.log(`the server died (${pipit.crashes.join(', ')}):\n${pipit.logs()}`);
      failed = true;
      break;
    }
    const t = Date.now() - started;
    const rss = readRss(pid) ?? 0;
    const ops = totalOps();
    samples.push({ t, rss, ops });
    const mark = t < warmupMs ? ' (warm-up)' : '';
    console.log(
      `${(t / 1000).toFixed(0).padStart(6)} s  rss ${mb(rss).padStart(9)}  ops ${String(ops).padStart(8)} (${Math.round(((ops - lastOps) * 1000) / Math.max(1, t - lastT))}/s)  bad ${totalBad()}${mark}`,
    );
    lastOps = ops;
    lastT = t;
  }
  stopping = true;
  await load;

  console.log('\nanswers:');
  for (const [op, s] of [...stats].sort())
    console.log(
      `  ${op.padEnd(26)} ${String(s.ok).padStart(8)} ok ${String(s.bad).padStart(6)} bad`,
    );
  for (const b of badSamples) console.log(`  bad: ${b}`);

  const after = samples.filter((s) => s.t >= warmupMs);
  if (!failed && after.length >= 2) {
    const start = median(after.slice(0, 3).map((s) => s.rss));
    const end = median(after.slice(-3).map((s) => s.rss));
    const growth = ((end - start) / start) * 100;
    const peak = Math.max(...samples.map((s) => s.rss));
    console.log(
      `\nRSS after warm-up ${mb(start)}, at the end ${mb(end)}, growth ${growth >= 0 ? '+' : ''}${growth.toFixed(1)}% (threshold +${thresholdPct}%), peak ${mb(peak)}, trend ${(slopePerMinute(after) / 1024 / 1024).toFixed(2)} MB/min`,
    );
    if (growth > thresholdPct) {
      console.log('FAILED: RSS grew past the threshold');
      failed = true;
    }
  } else if (!failed) {
    console.log('\nnot enough samples after the warm-up to compare RSS: run longer');
    failed = true;
  }
  const ratio = totalBad() / Math.max(1, totalOps());
  if (ratio > 0.001) {
    console.log(`FAILED: ${totalBad()} of ${totalOps()} answers were wrong`);
    failed = true;
  }
} finally {
  stopping = true;
  await pipit.close();
}
console.log(failed ? 'soak FAILED' : 'soak passed');
process.exit(failed ? 1 : 0);
