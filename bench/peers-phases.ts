// The parts of `npm run bench:peers` that compare the servers side by side: the preflight (same
// request, same reply), throughput in alternating rounds, and start-up in alternating rounds.
import { isDeepStrictEqual } from 'node:util';
import type { Measured } from './ab.ts';
import { startServer } from './peer-process.ts';
import type { RunningServer, ServerSpec } from './peer-process.ts';
import { legLine, SERVER_CPU, wrkLeg } from './peers-load.ts';

/** The body `/execute` gets on both servers: utils.echo with a small object. */
export const EXECUTE_BODY = JSON.stringify({
  type: 'request',
  id: 'bench',
  action: 'utils.echo',
  args: { text: 'hello', n: 1 },
});

/** One throughput leg: a request to a server. */
export interface PeerLeg {
  label: string;
  server: RunningServer;
  path: string;
  body: string;
  headers?: Record<string, string>;
}

async function answer(leg: PeerLeg): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${leg.server.url}${leg.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...leg.headers },
    body: leg.body,
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

// A response message's time of answer differs from one request to the next: only its type counts.
function comparable(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('_timestamp' in body)) return body;
  return { ...body, _timestamp: typeof body._timestamp };
}

/**
 * Sends each group's request once to every server of the group and throws unless all answered
 * 200 with the same JSON body (a response message's `_timestamp` compared by type); prints them.
 *
 * @example
 * await preflight([[nodeRedHook, yamlHook, scriptHook], [nodeRedExecute, pipitExecute]]);
 */
export async function preflight(groups: PeerLeg[][]): Promise<void> {
  console.log('\n## Preflight: the same request gets the same reply from every server');
  for (const group of groups) {
    const answers = await Promise.all(group.map(answer));
    answers.forEach((a, i) =>
      console.log(`  ${group[i]!.label.padEnd(22)} ${a.status} ${JSON.stringify(a.body)}`),
    );
    const first = comparable(answers[0]!.body);
    const bad = answers.findIndex(
      (a) => a.status !== 200 || !isDeepStrictEqual(comparable(a.body), first),
    );
    if (bad >= 0)
      throw new Error(
        `preflight: ${group[bad]!.label} answered ${answers[bad]!.status} ${JSON.stringify(answers[bad]!.body)}, not what ${group[0]!.label} answered: the comparison would not be fair`,
      );
  }
}

const load = (leg: PeerLeg, seconds: number, connections: number) =>
  wrkLeg(
    {
      url: `${leg.server.url}${leg.path}`,
      method: 'POST',
      body: leg.body,
      ...(leg.headers ? { headers: leg.headers } : {}),
      seconds,
      connections,
    },
    leg.server.pid,
  );

/**
 * Warms every leg up (`warmup` s each), then runs `rounds` rounds of every leg in the order given
 * (so each server's legs alternate with the others'), printing each leg; returns each label's
 * legs in round order.
 *
 * @example
 * const legs = await throughputRounds([nodeRedHook, yamlHook, scriptHook], { rounds: 3, seconds: 10, connections: 50, warmup: 3 });
 */
export async function throughputRounds(
  legs: PeerLeg[],
  opts: { rounds: number; seconds: number; connections: number; warmup: number },
): Promise<Record<string, Measured[]>> {
  console.log(
    `\n## Throughput: wrk (1 thread, ${opts.connections} connections) on core 0, servers on core ${SERVER_CPU}; ${opts.rounds} rounds of ${opts.seconds} s legs`,
  );
  for (const leg of legs) await load(leg, opts.warmup, opts.connections);
  const out: Record<string, Measured[]> = Object.fromEntries(legs.map((l) => [l.label, []]));
  for (let round = 1; round <= opts.rounds; round++) {
    console.log(`round ${round}`);
    for (const leg of legs) {
      const measured = await load(leg, opts.seconds, opts.connections);
      out[leg.label]!.push(measured);
      console.log(legLine(leg.label, measured));
    }
  }
  return out;
}

/** One start: spawn to the first 200, and the CPU time it took. */
export interface StartRun {
  readyMs: number;
  cpuMs: number;
}

/**
 * Starts each server once unmeasured (a first start creates files and warms the disk caches),
 * then `rounds` rounds of one start each in the order given, stopping each before the next;
 * returns each name's starts in round order.
 *
 * @example
 * const starts = await startupRounds([fastify, nodeRed, pipitYaml], 5);
 */
export async function startupRounds(
  specs: ServerSpec[],
  rounds: number,
): Promise<Record<string, StartRun[]>> {
  console.log(
    `\n## Start-up: spawn to the first 200, ${rounds} alternating rounds, servers on core ${SERVER_CPU}`,
  );
  for (const spec of specs) await (await startServer(spec, SERVER_CPU)).stop();
  const out: Record<string, StartRun[]> = Object.fromEntries(specs.map((s) => [s.name, []]));
  for (let round = 1; round <= rounds; round++) {
    const line: string[] = [];
    for (const spec of specs) {
      const server = await startServer(spec, SERVER_CPU);
      await server.stop();
      out[spec.name]!.push({ readyMs: server.readyMs, cpuMs: server.cpuMs });
      line.push(`${spec.name} ${server.readyMs.toFixed(0)} ms (CPU ${server.cpuMs.toFixed(0)} ms)`);
    }
    console.log(`  round ${round}: ${line.join('   ')}`);
  }
  return out;
}
