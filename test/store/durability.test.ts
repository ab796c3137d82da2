// kill -9 durability: `pipit start` takes variable writes, token issues and revocations from
// concurrent clients and is SIGKILLed while they continue; restarted on the same workdir, every
// write that was acknowledged (its HTTP answer arrived) must be there, the user must still log in,
// and SQLite's integrity check must say "ok". PIPIT_DURABILITY_ROUNDS rounds (default 3).
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

const ROUNDS = Number(process.env.PIPIT_DURABILITY_ROUNDS ?? 3);
const USERNAME = 'ada';
const PASSWORD = 'correct horse battery';
const VARIABLE_WRITERS = 4;

interface Acked {
  /** Variables whose variable.set was answered 200 without errors, with the value written. */
  variables: Map<string, unknown>;
  /** Tokens whose issue was answered (POST /auth or POST /tokens), and not revoked since. */
  tokens: Map<string, string>;
  /** Tokens whose revocation was answered. */
  revoked: Set<string>;
  /** Tokens whose revocation was sent and not answered: either state is right. */
  uncertain: Set<string>;
  /** The sequential counter writer: last value acknowledged, last value sent. */
  counter: { acked: number; sent: number };
}

interface Round {
  round: number;
  variablesAcked: number;
  tokensAcked: number;
  revocationsAcked: number;
  inFlightAtKill: number;
}

type Json = { status: number; body: Record<string, unknown> };

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Json> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function execute(base: string, token: string, action: string, args: Record<string, unknown>) {
  return call(base, 'POST', '/execute', { type: 'request', action, args }, token);
}

const succeeded = (r: Json, status = 200) =>
  r.status === status &&
  (r.body.response === undefined || (r.body.response as { errors: unknown[] }).errors.length === 0);

describe('kill -9 durability (a real `pipit start`, SIGKILLed under write load)', () => {
  let dir: string;
  let cleanup: () => void;
  let configPath: string;
  let proc: PipitProcess | undefined;
  const acked: Acked = {
    variables: new Map(),
    tokens: new Map(),
    revoked: new Set(),
    uncertain: new Set(),
    counter: { acked: -1, sent: -1 },
  };

  beforeAll(() => {
    ({ dir, cleanup } = tempDir('pipit-durability-'));
    configPath = join(dir, 'config.yaml');
    writeFileSync(
      configPath,
      'device_id: durable\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n',
    );
  });
  afterAll(async () => {
    if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
      proc.child.kill('SIGKILL');
      await once(proc.child, 'exit');
    }
    cleanup();
  });

  /** Runs writers until `target` variable writes are acknowledged, then SIGKILLs the process. */
  async function writeAndKill(round: number, base: string, token: string): Promise<Round> {
    const stats: Round = {
      round,
      variablesAcked: 0,
      tokensAcked: 0,
      revocationsAcked: 0,
      inFlightAtKill: 0,
    };
    const target = 40 + Math.floor(Math.random() * 120);
    let killed = false;
    let inFlight = 0;
    const killed$ = once(proc!.child, 'exit');
    const maybeKill = () => {
      if (killed || stats.variablesAcked < target || stats.tokensAcked < 1) return;
      killed = true;
      stats.inFlightAtKill = inFlight;
      proc!.child.kill('SIGKILL');
    };
    // Each writer stops at its first request that gets no answer (the process is gone), or after
    // 50 answers in a row that are not successes (then the round fails: too few acknowledged).
    let refusedInARow = 0;
    const tracked = async (request: () => Promise<Json>): Promise<Json | undefined> => {
      if (refusedInARow >= 50) return undefined;
      inFlight++;
      try {
        const res = await request();
        refusedInARow = res.status < 300 ? 0 : refusedInARow + 1;
        return res;
      } catch {
        return undefined;
      } finally {
        inFlight--;
      }
    };

    const variableWriter = async (w: number) => {
      for (let i = 0; ; i++) {
        const name = `r${round}_w${w}_${i}`;
        const value = { round, w, i, pad: 'x'.repeat((i * 37) % 1500), at: Date.now() };
        const res = await tracked(() => execute(base, token, 'variable.set', { [name]: value }));
        if (!res) return;
        if (succeeded(res)) {
          acked.variables.set(name, value);
          stats.variablesAcked++;
          maybeKill();
        }
      }
    };
    const counterWriter = async () => {
      for (let n = acked.counter.sent + 1; ; n++) {
        acked.counter.sent = n;
        const res = await tracked(() => execute(base, token, 'variable.set', { counter: n }));
        if (!res) return;
        if (succeeded(res)) acked.counter.acked = n;
      }
    };
    const tokenWriter = async () => {
      for (let i = 0; ; i++) {
        // Issue through POST /auth and POST /tokens in turn; revoke every third token issued.
        const res = await tracked(() =>
          i % 2 === 0
            ? call(base, 'POST', '/auth', {
                username: USERNAME,
                password: PASSWORD,
                name: `r${round}-${i}`,
              })
            : call(base, 'POST', '/tokens', { password: PASSWORD, name: `r${round}-${i}` }, token),
        );
        if (!res) return;
        if (succeeded(res, i % 2 === 0 ? 200 : 201)) {
          acked.tokens.set(res.body.token as string, res.body.id as string);
          stats.tokensAcked++;
          maybeKill();
        }
        if (i % 3 === 2) {
          const [victim, id] = [...acked.tokens].find(([t]) => t !== token) ?? [];
          if (!victim) continue;
          acked.tokens.delete(victim);
          acked.uncertain.add(victim);
          const del = await tracked(() => call(base, 'DELETE', `/tokens/${id}`, undefined, token));
          if (!del) return;
          if (succeeded(del)) {
            acked.uncertain.delete(victim);
            acked.revoked.add(victim);
            stats.revocationsAcked++;
          }
        }
      }
    };

    await Promise.all([
      ...Array.from({ length: VARIABLE_WRITERS }, (_, w) => variableWriter(w)),
      counterWriter(),
      tokenWriter(),
    ]);
    const stoppedEarly = !killed;
    if (stoppedEarly) proc!.child.kill('SIGKILL');
    await killed$;
    expect(stoppedEarly, 'the writers stopped before the process was killed').toBe(false);
    return stats;
  }

  /** Checks every acknowledged write on the restarted process; returns what is missing. */
  async function verify(base: string): Promise<string[]> {
    const problems: string[] = [];
    const login = await call(base, 'POST', '/login', { username: USERNAME, password: PASSWORD });
    if (login.status !== 200) problems.push(`login answered ${login.status}`);
    const auth = await call(base, 'POST', '/auth', { username: USERNAME, password: PASSWORD });
    if (auth.status !== 200) return [...problems, `POST /auth answered ${auth.status}`];
    const token = auth.body.token as string;

    for (const [name, value] of acked.variables) {
      const got = await execute(base, token, 'variable.get', { name });
      const output = (got.body.response as { output: Record<string, unknown> }).output;
      if (JSON.stringify(output[name]) !== JSON.stringify(value))
        problems.push(
          `variable ${name}: acknowledged ${JSON.stringify(value)}, found ${JSON.stringify(output[name])}`,
        );
    }
    const counter = await execute(base, token, 'variable.get', { name: 'counter' });
    const c = (counter.body.response as { output: { counter: number | null } }).output.counter;
    if (
      acked.counter.acked >= 0 &&
      (c === null || c < acked.counter.acked || c > acked.counter.sent)
    )
      problems.push(
        `counter: acknowledged ${acked.counter.acked}, sent up to ${acked.counter.sent}, found ${c}`,
      );
    for (const t of acked.tokens.keys()) {
      const res = await execute(base, t, 'utils.echo', { ok: 1 });
      if (res.status !== 200) problems.push(`an acknowledged token answers ${res.status}`);
    }
    for (const t of acked.revoked) {
      const res = await execute(base, t, 'utils.echo', { ok: 1 });
      if (res.status !== 401) problems.push(`a revoked token answers ${res.status}`);
    }
    return problems;
  }

  function integrity(): string {
    const db = new DatabaseSync(join(dir, 'data', 'pipit.db'), { readOnly: true });
    try {
      const rows = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
      return rows.map((r) => r.integrity_check).join('; ');
    } finally {
      db.close();
    }
  }

  it(`keeps every acknowledged write over ${ROUNDS} SIGKILLs, with an intact database`, async () => {
    const rounds: Round[] = [];
    proc = await startPipitProcess(configPath);
    expect(
      (await call(proc.url, 'POST', '/register', { username: USERNAME, password: PASSWORD }))
        .status,
    ).toBe(201);

    for (let round = 0; round < ROUNDS; round++) {
      const auth = await call(proc.url, 'POST', '/auth', {
        username: USERNAME,
        password: PASSWORD,
        name: `writer-${round}`,
      });
      expect(auth.status).toBe(200);
      const stats = await writeAndKill(round, proc.url, auth.body.token as string);
      expect(proc.child.signalCode).toBe('SIGKILL');
      rounds.push(stats);

      // Restarted on the same workdir: everything acknowledged so far is there.
      proc = await startPipitProcess(configPath);
      expect(integrity()).toBe('ok');
      expect(await verify(proc.url)).toEqual([]);
      expect(stats.variablesAcked).toBeGreaterThanOrEqual(40);
      expect(stats.tokensAcked).toBeGreaterThanOrEqual(1);
      expect(stats.inFlightAtKill, 'writes were still under way at the kill').toBeGreaterThan(0);
    }

    const total = rounds.reduce((n, r) => n + r.variablesAcked, 0);
    expect(acked.variables.size).toBe(total);
    expect(acked.counter.acked).toBeGreaterThan(0);
    console.log(
      `kill -9 rounds: ${rounds
        .map(
          (r) =>
            `#${r.round}: ${r.variablesAcked} variables, ${r.tokensAcked} tokens, ${r.revocationsAcked} revocations acknowledged, ${r.inFlightAtKill} requests in flight at the kill`,
        )
        .join(
          '; ',
        )}; counter ${acked.counter.acked}/${acked.counter.sent}; all present after restart`,
    );

    // A clean stop after all that leaves an intact database too.
    expect(await proc.stop()).toBe(0);
    expect(integrity()).toBe('ok');
  }, 180_000);
});
