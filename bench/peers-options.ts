import { parseArgs } from 'node:util';

/** What `npm run bench:peers` runs, and for how long. */
export interface PeersOptions {
  /** Rounds of the throughput legs (each server once a round, alternated). */
  rounds: number;
  /** Length of each throughput leg, in seconds. */
  seconds: number;
  /** wrk's connections (one thread). */
  connections: number;
  /** Rounds of start-up measurements. */
  startupRounds: number;
  /** The memory runs' idle, load and recovery lengths, in seconds. */
  memory: { idle: number; load: number; recover: number };
  /** Load bench/heap-probe.ts into the servers of the memory runs, and print V8's figures. */
  heapSpaces: boolean;
  /** The parts to run. */
  parts: Set<'throughput' | 'startup' | 'memory'>;
}

const HELP = `npm run bench:peers -- [options]
  --quick              smoke run: 5 s legs, 5 s loads and idles, 1 round
  --rounds N           throughput rounds (default 3)
  --seconds N          each throughput leg (default 10)
  --connections N      wrk connections, one thread (default 50)
  --startup-rounds N   start-up rounds (default 5; at least 3 unless --quick)
  --idle N             memory: idle after the first answer (default 60)
  --load N             memory: hook load (default 60)
  --recover N          memory: idle after the load (default 60)
  --heap-spaces        memory: sample V8's heap spaces and GCs inside each server
  --only LIST          comma-separated parts: throughput,startup,memory (default all)`;

/**
 * Reads the command line of `npm run bench:peers`.
 *
 * @example
 * peersOptions(['--quick']).memory; // { idle: 5, load: 5, recover: 5 }
 */
export function peersOptions(argv: string[]): PeersOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      'startup-rounds': { type: 'string' },
      idle: { type: 'string' },
      load: { type: 'string' },
      recover: { type: 'string' },
      'heap-spaces': { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const quick = values.quick;
  const num = (name: string, value: string | undefined, fallback: number, min = 1) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isFinite(n) || n < min)
      throw new Error(`--${name} ${value}: a number >= ${min}\n${HELP}`);
    return n;
  };
  const parts = new Set((values.only ?? 'throughput,startup,memory').split(','));
  for (const p of parts)
    if (!['throughput', 'startup', 'memory'].includes(p))
      throw new Error(`--only ${values.only}: parts are throughput, startup and memory\n${HELP}`);
  return {
    rounds: Math.round(num('rounds', values.rounds, quick ? 1 : 3)),
    seconds: num('seconds', values.seconds, quick ? 5 : 10),
    connections: Math.round(num('connections', values.connections, 50)),
    startupRounds: Math.round(num('startup-rounds', values['startup-rounds'], quick ? 1 : 5)),
    memory: {
      idle: num('idle', values.idle, quick ? 5 : 60, 1),
      load: num('load', values.load, quick ? 5 : 60),
      recover: num('recover', values.recover, quick ? 5 : 60, 0),
    },
    heapSpaces: values['heap-spaces'],
    parts: parts as PeersOptions['parts'],
  };
}
