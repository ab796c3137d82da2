// The Prometheus text format as a scraper reads it, for the tests of /metrics.
/** One sample line of the text format: `name{label="value",...} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  help: Map<string, string>;
  types: Map<string, string>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

/**
 * A sample value or `le` bound as Prometheus reads it (Go's ParseFloat): NaN and Inf in any case;
 * prom-client writes "Nan".
 *
 * @example
 * promNumber('+Inf'); // Infinity
 */
export function promNumber(text: string): number {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) {
    if (special[2]!.toLowerCase() === 'nan') return NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  const value = Number(text);
  if (Number.isNaN(value) || text.trim() === '') throw new Error(`not a sample value: ${text}`);
  return value;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly: every line is a
 * `# HELP`, a `# TYPE`, or a sample `name{labels} value [timestamp]`; anything else throws.
 *
 * @example
 * const exposition = parseExposition(await (await fetch(url)).text());
 */
export function parseExposition(text: string): Exposition {
  const out: Exposition = { samples: [], help: new Map(), types: new Map() };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'HELP' ? out.help : out.types).set(meta[2]!, meta[3]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const name = NAME.exec(line)?.[0];
    if (!name) throw new Error(`not a sample line: ${line}`);
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      const end = rest.lastIndexOf('}');
      const body = rest.slice(1, end);
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < body.length) {
        const at = LABEL.lastIndex;
        const m = LABEL.exec(body);
        if (!m || m.index !== at) throw new Error(`bad labels in: ${line}`);
        labels[m[1]!] = unescape(m[2]!);
      }
      rest = rest.slice(end + 1);
    }
    const fields = rest.trim().split(/\s+/);
    if (fields.length < 1 || fields.length > 2 || !rest.startsWith(' '))
      throw new Error(`bad sample: ${line}`);
    out.samples.push({ name, labels, value: promNumber(fields[0]!) });
  }
  return out;
}

/**
 * The value of the one sample named `name` whose labels include `labels`; undefined if none.
 *
 * @example
 * sample(exposition, 'pipit_requests_total', { action: 'utils.echo' }); // 3
 */
export function sample(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const hits = exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length > 1)
    throw new Error(`${hits.length} samples match ${name} ${JSON.stringify(labels)}`);
  return hits[0]?.value;
}
