// Endpoints and the campaign: a generator run through a driver in concurrent streams, answers
// counted by status and violations collected by signature.
import fc from 'fast-check';
import { executeInput, hookInput, wsEventsInput, wsRequestsInput } from '../generators.ts';
import type { HttpInput, WsInput } from '../generators.ts';
import type { Driver } from './http.ts';
import { HttpDriver, judgeExecute, judgeHook } from './http.ts';
import type { FuzzServer } from './server.ts';
import { kindOf, SERVER_WIDE } from './limits.ts';
import { WsEventsDriver, WsRequestsDriver } from './ws.ts';

export type EndpointName = 'execute' | 'ws-requests' | 'ws-events' | 'hook';

/** Any input of any endpoint. */
export type FuzzInput = HttpInput | WsInput;

/** An endpoint under fuzz: its generator, its driver, how many streams run at once. */
export interface EndpointSpec {
  name: EndpointName;
  arb: fc.Arbitrary<FuzzInput>;
  /** Concurrent streams (each sequential). /ws/events has one: events fan out to every socket. */
  concurrency: number;
  driver(server: FuzzServer): Driver<FuzzInput>;
}

/** The four endpoints, in the order they are fuzzed. */
export function endpoints(concurrency: number): EndpointSpec[] {
  return [
    {
      name: 'execute',
      arb: executeInput,
      concurrency,
      driver: (s) => new HttpDriver(s, judgeExecute),
    },
    {
      name: 'ws-requests',
      arb: wsRequestsInput,
      concurrency,
      driver: (s) => new WsRequestsDriver(s),
    },
    {
      name: 'ws-events',
      arb: wsEventsInput,
      concurrency: 1,
      driver: (s) => new WsEventsDriver(s),
    },
    {
      name: 'hook',
      arb: hookInput,
      concurrency,
      driver: (s) => new HttpDriver(s, judgeHook),
    },
  ];
}

/** One input that broke a property, where to replay it from, and what was wrong. */
export interface Violation {
  endpoint: EndpointName;
  kind: string;
  /** endpoint, kind and the input's label: failures grouped by cause. */
  signature: string;
  messages: string[];
  input: FuzzInput;
  seed: number;
  index: number;
}

/** What a campaign over one endpoint saw. */
export interface EndpointReport {
  endpoint: EndpointName;
  inputs: number;
  ms: number;
  /** Answers by status (HTTP status, or the kind of WebSocket answer). */
  counts: Record<string, number>;
  /** Violations by signature: how many, and the first few to replay. */
  bySignature: Map<string, { count: number; samples: Violation[] }>;
  /** Known-good requests, made every `checkEvery` inputs, that were not answered right. */
  downs: string[];
}

/**
 * Runs `runs` generated inputs through an endpoint's driver in `spec.concurrency` streams (each its
 * own fast-check run, seeded `seed + stream`), counting answers and collecting violations. The
 * server is asked a known-good request every `checkEvery` inputs of a stream.
 */
export async function fuzzEndpoint(
  server: FuzzServer,
  spec: EndpointSpec,
  opts: { runs: number; seed: number; checkEvery?: number; onProgress?: (done: number) => void },
): Promise<EndpointReport> {
  const started = Date.now();
  const report: EndpointReport = {
    endpoint: spec.name,
    inputs: 0,
    ms: 0,
    counts: {},
    bySignature: new Map(),
    downs: [],
  };
  const checkEvery = opts.checkEvery ?? 250;
  const streams = Math.max(1, Math.min(spec.concurrency, opts.runs));
  await Promise.all(
    Array.from({ length: streams }, async (_, stream) => {
      const numRuns = Math.floor(opts.runs / streams) + (stream < opts.runs % streams ? 1 : 0);
      if (!numRuns) return;
      const seed = (opts.seed + stream) | 0;
      const driver = spec.driver(server);
      let index = 0;
      const details = await fc.check(
        fc.asyncProperty(spec.arb, async (input) => {
          const at = index++;
          const out = await driver.run(input);
          report.inputs++;
          report.counts[out.status] = (report.counts[out.status] ?? 0) + 1;
          for (const kind of new Set(out.violations.map(kindOf))) {
            // A crash fails every input in flight: one signature, and enough samples to find
            // the input that reproduces it alone.
            const whole = SERVER_WIDE.has(kind);
            const signature = `${spec.name} | ${kind}${whole ? '' : ` | ${input.label}`}`;
            const entry = report.bySignature.get(signature) ?? { count: 0, samples: [] };
            entry.count++;
            if (entry.samples.length < (whole ? 4 * streams : 3)) {
              entry.samples.push({
                endpoint: spec.name,
                kind,
                signature,
                messages: out.violations.filter((m) => kindOf(m) === kind),
                input,
                seed,
                index: at,
              });
            }
            report.bySignature.set(signature, entry);
          }
          if (index % checkEvery === 0) {
            await server.ready();
            const down = await server.knownGood();
            if (down) report.downs.push(`${down} (after input ${at} of stream ${stream})`);
          }
          opts.onProgress?.(report.inputs);
          return true;
        }),
        { seed, numRuns },
      );
      await driver.close();
      if (details.failed)
        throw new Error(`the fuzz harness itself failed:\n${fc.defaultReportMessage(details)}`);
    }),
  );
  report.ms = Date.now() - started;
  return report;
}

/** A failure replayed alone and shrunk to a minimal input. */
