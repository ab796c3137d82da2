import { once } from 'node:events';
import { join } from 'node:path';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { describe, expect, it } from 'vitest';
import { abCompare, intervalLine } from '../../bench/ab.ts';
import type { Measured } from '../../bench/ab.ts';
import { generatorBound } from '../../bench/cpu.ts';
import { medianInterval, spawnTarget, stopTarget } from '../../bench/lib.ts';
import { LeanSocket } from '../../bench/ws-client.ts';
import { hasWrk, startWrk, wrkScript } from '../../bench/wrk.ts';

/** What the benchmark targets print: Pipit's address, the bare server's, and a token. */
interface Target {
  pipitUrl: string;
  bareUrl: string;
  token: string;
}

/** The newest runs of a target's Pipit (`runs.list` writes what is queued before it reads). */
async function recentRuns(pipitUrl: string, token: string): Promise<unknown[]> {
  const listed = await fetch(`${pipitUrl}/execute`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'request', action: 'runs.list', args: { limit: 10 } }),
  });
  return ((await listed.json()) as { response: { output: { runs: unknown[] } } }).response.output
    .runs;
}

/** Runs `fn` with console.log captured (abCompare prints its table): its result and the lines. */
async function quietly<T>(fn: () => Promise<T>): Promise<{ result: T; printed: string }> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.join(' '));
  try {
    return { result: await fn(), printed: lines.join('\n') };
  } finally {
    console.log = log;
  }
}

// The benchmark instrument (bench/): the generator-bound rule, wrk's Lua script, the lean client.
describe('the benchmark instrument', () => {
  it('calls a baseline generator-bound only when the generator, not the server, is saturated', () => {
    expect(generatorBound({ server: 0.6, generator: 0.99 })).toBe(true);
    expect(generatorBound({ server: 0.97, generator: 0.97 })).toBe(false);
    expect(generatorBound({ server: 0.5, generator: 0.4 })).toBe(false);
    expect(generatorBound({ server: 0.6 })).toBe(false);
  });

  it("bounds the median by order statistics, with the interval's binomial coverage", () => {
    // Shuffled, so that the order statistics come from sorting.
    const of = (n: number) => Array.from({ length: n }, (_, i) => ((i * 7) % n) + 1);
    // 5 pairs: the range, 1 - 2/32.
    expect(medianInterval(of(5))).toEqual({ low: 1, high: 5, coverage: 0.9375 });
    // 8: the 2nd to the 7th, 1 - 2*(1+8)/256; the 3rd to the 6th would hold only 71%.
    expect(medianInterval(of(8))).toEqual({ low: 2, high: 7, coverage: 1 - 18 / 256 });
    // 12: the 3rd to the 10th, 1 - 2*(1+12+66)/4096.
    expect(medianInterval(of(12))).toEqual({ low: 3, high: 10, coverage: 1 - 158 / 4096 });
    // Too few for 90%: the range, with what it covers.
    expect(medianInterval(of(4))).toEqual({ low: 1, high: 4, coverage: 0.875 });
    expect(medianInterval([0.93, 0.95, 0.97, 0.99, 0.9], 0.99).coverage).toBe(0.9375);
  });

  it("says whether the median's interval settles the goal, for throughput and for p99", () => {
    const line = (ratios: number[], metric: 'rps' | 'p99', goal: number) =>
      intervalLine({ ratios, metric, goal, interval: medianInterval(ratios) });
    expect(line([0.96, 0.97, 0.99, 1.0, 0.95], 'rps', 0.95)).toBe(
      "the median's 93% interval over 5 pairs: 0.95–1.00: all at or above the goal (0.95), so it is met beyond this run's noise",
    );
    expect(line([0.8, 0.85, 0.9, 0.94, 0.91], 'rps', 0.95)).toMatch(
      /0\.80–0\.94: all below the goal \(0\.95\), so it is not met/,
    );
    expect(line([0.83, 0.97, 1.05, 0.9, 0.95], 'rps', 0.95)).toMatch(
      /0\.83–1\.05: it holds the goal \(0\.95\), so these pairs cannot tell met from not met$/,
    );
    expect(line([1.1, 1.2, 1.3, 1.25, 1.0], 'p99', 1.3)).toMatch(/all at or below the goal .* met/);
    expect(line([1.4, 1.5, 1.35, 1.6, 1.45], 'p99', 1.3)).toMatch(/all above the goal .* not met/);
    // Four pairs all below the goal: their range covers the median only 87.5% of the time.
    expect(line([0.8, 0.85, 0.9, 0.94], 'rps', 0.95)).toBe(
      "the median's 87% interval over 4 pairs: 0.80–0.94: too few pairs to settle the goal either way",
    );
  });

  it('switches which leg goes first every pair when asked, and still divides subject by baseline', async () => {
    const order: string[] = [];
    // The subject serves 90% of the baseline; whichever runs second serves 10% less again.
    const leg = (label: string, rps: number) => ({
      label,
      run: async (): Promise<Measured> => {
        order.push(label);
        const second = order.length % 2 === 0;
        return {
          rps: second ? rps * 0.9 : rps,
          p50: 1,
          p99: 1,
          errors: 0,
          cpu: {},
          generator: 't',
        };
      },
    });
    const { result: r } = await quietly(() =>
      abCompare({
        title: 'alternate',
        metric: 'rps',
        pairs: 4,
        seconds: 1,
        warmupSeconds: 0,
        alternate: true,
        baseline: leg('base', 100),
        subject: leg('subj', 90),
      }),
    );
    expect(order).toEqual(['base', 'subj', 'subj', 'base', 'base', 'subj', 'subj', 'base']);
    // Subject second: 81/100; subject first: 90/90. Always subject over baseline.
    expect(r.ratios.map((x) => Number(x.toFixed(3)))).toEqual([0.81, 1, 0.81, 1]);
    expect(r.legs.subj!.map((m) => m.rps)).toEqual([81, 90, 81, 90]);
  });

  it("measures a floor leg after each pair, as a ratio to the same pair's baseline", async () => {
    const order: string[] = [];
    // Baseline 100, 200, 400 req/s over three pairs; the floor 75% of each, the subject 50%.
    let pair = 0;
    const leg = (label: string, share: number) => ({
      label,
      run: async (): Promise<Measured> => {
        order.push(label);
        if (label === 'base') pair++;
        const rps = 50 * 2 ** pair * share;
        return { rps, p50: 1, p99: 1, errors: 0, cpu: {}, generator: 'test' };
      },
    });
    const { result: r, printed } = await quietly(() =>
      abCompare({
        title: 'floor',
        metric: 'rps',
        pairs: 3,
        seconds: 0,
        warmupSeconds: 0,
        goal: 0.8,
        baseline: leg('base', 1),
        subject: leg('subj', 0.5),
        floor: leg('floor', 0.75),
      }),
    );
    expect(order).toEqual([
      'base',
      'subj',
      'floor',
      'base',
      'subj',
      'floor',
      'base',
      'subj',
      'floor',
    ]);
    expect(r.ratios).toEqual([0.5, 0.5, 0.5]);
    expect(r.floor).toEqual({ median: 0.75, min: 0.75, max: 0.75, ratios: [0.75, 0.75, 0.75] });
    expect(printed).toMatch(
      /floor .* median 0\.75 .*: below the goal of 0\.8 before the rest of the path runs/,
    );
  });

  it('judges a p99 goal on every sample of the run, not on legs that rest on a few events', async () => {
    // Each leg: 100 samples at 10 ms; the subject's first leg has one slow burst (3 samples at
    // 90 ms), which is that leg's p99 and makes the median pair ratio 9 when there are 2 pairs.
    const leg = (slow: number): Measured => {
      const samples = Float64Array.from({ length: 100 }, (_, i) => (i < slow ? 90 : 10)).sort();
      return {
        rps: 100,
        p50: 10,
        p99: samples[99]!,
        samples,
        errors: 0,
        cpu: {},
        generator: 'test',
      };
    };
    // `pairs` pairs whose subject's leg number `slowLeg` has the slow burst.
    const compare = (pairs: number, slowLeg: number) => {
      let n = 0;
      return abCompare({
        title: 'pooled',
        metric: 'p99',
        pairs,
        seconds: 0,
        warmupSeconds: 0,
        goal: 1.3,
        baseline: { label: 'base', run: async () => leg(0) },
        subject: { label: 'subj', run: async () => leg(n++ === slowLeg ? 3 : 0) },
      });
    };
    const { result: r } = await quietly(() => compare(1, 0));
    expect(r.ratios).toEqual([9]);
    expect(r.pooled).toEqual({
      baseline: 10,
      subject: 90,
      ratio: 9,
      samples: { baseline: 100, subject: 100 },
    });
    expect(r.met).toBe(false);
    expect(r.legs.subj![0]!.samples).toBeUndefined();

    const { result: again, printed } = await quietly(() => compare(4, 1));
    // 3 slow samples in 400 are under 1%: the run's p99 is the baseline's.
    expect(again.ratios.filter((x) => x === 9)).toHaveLength(1);
    expect(again.pooled?.ratio).toBe(1);
    expect(again.met).toBe(true);
    expect(printed).toMatch(
      /p99 over every sample of the run: .* ratio 1\.00 {3}goal <= 1\.3: met/,
    );
  });

  it('escapes every byte of the body and headers in the Lua script', () => {
    const script = wrkScript({
      url: 'http://x/',
      body: '{"a":"]]\\"\n"}',
      headers: { authorization: 'Bearer a"b' },
      seconds: 1,
      connections: 1,
    });
    expect(script).toContain('wrk.method = "\\80\\79\\83\\84"');
    expect(script).not.toMatch(/"a"|Bearer/);
    expect(script).toContain('done = function(summary, latency, requests)');
  });

  it.runIf(hasWrk())('drives a POST with wrk and reads its figures', async () => {
    const app = Fastify();
    let seen: unknown;
    app.post('/p', async (req) => {
      seen = { body: req.body, auth: req.headers.authorization };
      return { ok: true };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const run = startWrk(
        {
          url: `${url}/p`,
          body: '{"n":1}',
          headers: { authorization: 'Bearer t' },
          seconds: 1,
          connections: 2,
        },
        undefined,
      );
      const figures = await run.result;
      expect(figures.rps).toBeGreaterThan(0);
      expect(figures.p99).toBeGreaterThanOrEqual(figures.p50);
      expect(figures.errors).toBe(0);
      expect(seen).toEqual({ body: { n: 1 }, auth: 'Bearer t' });
    } finally {
      await app.close();
    }
  });

  it('LeanSocket exchanges text frames with a ws server, split or joined', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    server.on('connection', (ws) =>
      ws.on('message', (data) => {
        const text = (data as Buffer).toString();
        // Two frames back to back, the second longer than 65,535 bytes (a 64-bit length).
        ws.send(text);
        ws.send('x'.repeat(70_000));
      }),
    );
    const { port } = server.address() as { port: number };
    const ws = await LeanSocket.open(`ws://127.0.0.1:${port}/`);
    ws.wantPayload = true;
    const got: string[] = [];
    const done = new Promise<void>((resolve) => {
      ws.onFrame = (_at, payload) => {
        got.push(String(payload));
        if (got.length === 2) resolve();
      };
    });
    ws.send(LeanSocket.frame('{"hello":"wörld"}'));
    await done;
    expect(got[0]).toBe('{"hello":"wörld"}');
    expect(got[1]).toHaveLength(70_000);
    ws.close();
    server.close();
  });

  it('starts the history target with one service alone for a fresh-process leg, or both', async () => {
    interface Target {
      recordingUrl: string;
      recordingToken: string;
      plainUrl: string;
    }
    const target = join(import.meta.dirname, '../../bench/recording-target.ts');
    const alone = await spawnTarget<Target>(target, 0, { RECORDING_TARGET_ONLY: 'true' });
    try {
      expect(alone.info.plainUrl).toBe('');
      const res = await fetch(`${alone.info.recordingUrl}/execute`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${alone.info.recordingToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ type: 'request', action: 'utils.echo', args: { text: 'hi' } }),
      });
      expect(await res.json()).toMatchObject({ response: { output: { text: 'hi' } } });
    } finally {
      await stopTarget(alone.child);
    }
    expect(alone.child.exitCode).toBe(0);
    const both = await spawnTarget<Target>(target, 0);
    try {
      expect(both.info.recordingUrl).toMatch(/^http:/);
      expect(both.info.plainUrl).toMatch(/^http:/);
    } finally {
      await stopTarget(both.child);
    }
  }, 30_000);

  it('records a real, masked run in the history from each floor route', async () => {
    const target = await spawnTarget<Target>(
      join(import.meta.dirname, '../../bench/targets.ts'),
      0,
    );
    const { pipitUrl, bareUrl, token } = target.info;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const echo = (args: Record<string, unknown>) => ({
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'request', action: 'utils.echo', args }),
    });
    try {
      const answer = await fetch(
        `${bareUrl}/bare-jwt-recorded`,
        echo({ text: 'floor', password: 'p' }),
      );
      expect(await answer.json()).toMatchObject({ response: { output: { text: 'floor' } } });
      expect(await (await fetch(`${bareUrl}/bare-hook-recorded`)).json()).toEqual({
        ok: true,
        method: 'GET',
      });
      expect(await recentRuns(pipitUrl, token)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            transport: 'http',
            name: 'utils.echo',
            args: { text: 'floor', password: '[redacted]' },
            caller: expect.objectContaining({ user: 'bench', via: 'token' }),
          }),
          expect.objectContaining({
            transport: 'webhook',
            kind: 'hook',
            args: expect.objectContaining({ hook: 'bench', method: 'GET' }),
          }),
        ]),
      );
    } finally {
      await stopTarget(target.child);
    }
  }, 30_000);

  it('records the run of a /ws/requests floor frame in the history', async () => {
    const target = await spawnTarget<Target>(
      join(import.meta.dirname, '../../bench/ws-target.ts'),
      0,
    );
    const { pipitUrl, bareUrl, token } = target.info;
    try {
      const ws = await LeanSocket.open(`${bareUrl}/requests-recorded`);
      ws.wantPayload = true;
      const answered = new Promise<string>((resolve) => {
        ws.onFrame = (_at, payload) => resolve(payload!.toString());
      });
      const request = {
        type: 'request',
        action: 'utils.echo',
        args: { token: 't', n: 1 },
        id: 'f1',
      };
      ws.send(LeanSocket.frame(JSON.stringify(request)));
      expect(JSON.parse(await answered)).toMatchObject({
        id: 'f1',
        response: { output: { n: 1 } },
      });
      ws.close();
      expect(await recentRuns(pipitUrl.replace(/^ws/, 'http'), token)).toEqual([
        expect.objectContaining({
          transport: 'ws',
          name: 'utils.echo',
          args: { token: '[redacted]', n: 1 },
        }),
      ]);
    } finally {
      await stopTarget(target.child);
    }
  }, 30_000);
});
