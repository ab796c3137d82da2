// Failures replayed alone and shrunk to a minimal input, and the reports that print them.
import fc from 'fast-check';
import { clip, textDepth } from '../checks.ts';
import type { EndpointReport, EndpointSpec, FuzzInput } from './campaign.ts';
import type { FuzzServer } from './server.ts';
import { kindOf, SERVER_WIDE } from './limits.ts';

export interface Shrunk {
  signature: string;
  count: number;
  reproduced: boolean;
  input?: FuzzInput;
  messages: string[];
  shrinks: number;
  interrupted: boolean;
}

/**
 * Replays the failures of each signature alone (nothing else running), in order of frequency, up
 * to `maxSignatures`, and shrinks the first that reproduces to a minimal input with the same kind
 * of violation. A failure that does not reproduce alone was collateral (say, of a crash).
 */
export async function shrinkFailures(
  server: FuzzServer,
  specs: EndpointSpec[],
  reports: EndpointReport[],
  opts: { maxSignatures: number; timeLimitMs: number },
): Promise<Shrunk[]> {
  // Crashes and hangs first, then the most frequent.
  const rank = (signature: string, count: number) =>
    (SERVER_WIDE.has(signature.split(' | ')[1]!) ? 1e12 : 0) + count;
  const all = reports
    .flatMap((r) => [...r.bySignature.entries()])
    .sort((a, b) => rank(b[0], b[1].count) - rank(a[0], a[1].count));
  const out: Shrunk[] = [];
  for (const [signature, { count, samples }] of all.slice(0, opts.maxSignatures)) {
    let result: Shrunk = {
      signature,
      count,
      reproduced: false,
      messages: samples[0]!.messages,
      shrinks: 0,
      interrupted: false,
    };
    const deadline = Date.now() + opts.timeLimitMs;
    for (const sample of samples) {
      if (Date.now() >= deadline) {
        result = { ...result, interrupted: true };
        break;
      }
      const spec = specs.find((s) => s.name === sample.endpoint)!;
      const driver = spec.driver(server);
      let lastMessages: string[] = [];
      const details = await fc.check(
        fc.asyncProperty(spec.arb, async (input) => {
          const outcome = await driver.run(input);
          const hit = outcome.violations.filter((m) => kindOf(m) === sample.kind);
          if (hit.length) {
            lastMessages = hit;
            throw new Error(hit.join('\n'));
          }
        }),
        {
          seed: sample.seed,
          path: String(sample.index),
          numRuns: 1,
          plugins: [fc.interruptAfterTimeLimit(deadline - Date.now())],
        },
      );
      await driver.close();
      if (details.failed && details.counterexample) {
        result = {
          signature,
          count,
          reproduced: true,
          input: (details.counterexample as [FuzzInput])[0],
          messages: messagesOf(details.errorInstance) ?? lastMessages,
          shrinks: details.numShrinks,
          interrupted: details.interrupted,
        };
        break;
      }
      if (details.interrupted) {
        result = { ...result, interrupted: true };
        break;
      }
    }
    out.push(result);
  }
  return out;
}

function messagesOf(err: unknown): string[] | undefined {
  return err instanceof Error ? err.message.split('\n') : undefined;
}

/** A readable one-paragraph description of an input. */
export function describeInput(input: FuzzInput): string {
  const data = (d: string | Uint8Array | undefined) =>
    d === undefined
      ? '(none)'
      : typeof d === 'string'
        ? `${clip(JSON.stringify(d), 400)}${textDepth(d) > 20 ? ` (nesting depth ${textDepth(d, Infinity)})` : ''}`
        : `<${d.byteLength} bytes: ${Buffer.from(d.subarray(0, 48)).toString('hex')}${d.byteLength > 48 ? '…' : ''}>`;
  if ('method' in input) {
    return `${input.method} ${clip(input.path, 200)} auth=${input.auth} headers=${clip(JSON.stringify(input.headers), 200)} body=${data(input.body)}`;
  }
  if (input.kind === 'connect')
    return `connect with credentials "${input.auth}"${input.origin === undefined ? '' : ` origin ${JSON.stringify(input.origin)}`}`;
  return `${input.binary ? 'binary' : 'text'} frame ${data(input.data)}`;
}

/** The counts of a report as aligned lines. */
export function formatCounts(report: EndpointReport): string {
  const rows = Object.entries(report.counts).sort((a, b) => b[1] - a[1]);
  return rows.map(([status, n]) => `    ${status.padEnd(36)} ${String(n).padStart(8)}`).join('\n');
}

/** Everything found, for an assertion message or the console. */
export function formatFailures(reports: EndpointReport[], shrunk: Shrunk[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    for (const d of r.downs) lines.push(`[${r.endpoint}] ${d}`);
    for (const [signature, { count, samples }] of r.bySignature) {
      const s = shrunk.find((x) => x.signature === signature);
      lines.push(`[${signature}] ${count}x`);
      if (s?.reproduced) {
        lines.push(
          `    minimal input (${s.shrinks} shrinks${s.interrupted ? ', interrupted' : ''}): ${describeInput(s.input!)}`,
        );
        for (const m of s.messages.slice(0, 3)) lines.push(`    → ${clip(m, 500)}`);
      } else {
        lines.push(`    first input: ${describeInput(samples[0]!.input)}`);
        for (const m of samples[0]!.messages.slice(0, 3)) lines.push(`    → ${clip(m, 500)}`);
        if (s?.interrupted) lines.push('    (not replayed: out of time)');
        else if (s) lines.push('    (did not reproduce alone: collateral of another failure?)');
      }
    }
  }
  return lines.join('\n');
}
