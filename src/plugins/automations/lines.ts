import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node, ScalarTag } from 'yaml';
import { PipitError } from '../../core/errors.ts';

/** The submitted YAML of one automation, parsed, with the means to point at its lines. */
export interface Submitted {
  text: string;
  /** The section key as written (`procedure.morning(volume)`). */
  key: string;
  value: unknown;
  doc: Document;
  counter: LineCounter;
  /** The node of the section's value. */
  node: Node | null;
}

/** One problem of a submitted automation, at a line of the submitted text. */
export interface LineError {
  line: number;
  message: string;
}

// `!env NAME` is kept as written here: the loader, which checks the whole file, resolves it.
const ENV_TAG: ScalarTag = { tag: '!env', resolve: (text: string) => `!env ${text}` };

/**
 * INVALID_ARGUMENTS listing every problem as `line N: ...` (the editor shows each at its line);
 * `details.lines` has them as data.
 */
export function invalidAt(errors: LineError[]): PipitError {
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  return new PipitError(
    'INVALID_ARGUMENTS',
    sorted.map((e) => `line ${e.line}: ${e.message}`).join('\n'),
    { details: { lines: sorted } },
  );
}

/**
 * Parses the `yaml` of `automations.save`: one top-level key, a procedure, hook or cron. Bad YAML
 * and anything else are INVALID_ARGUMENTS at their line.
 *
 * @example
 * parseSubmitted('cron.A:\n  cron_expression: "* * * * *"\n  actions: []\n').key; // 'cron.A'
 */
export function parseSubmitted(text: string): Submitted {
  const counter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: counter,
    uniqueKeys: true,
    customTags: [ENV_TAG],
  });
  if (doc.errors.length)
    throw invalidAt(
      doc.errors.map((e) => ({
        line: e.linePos?.[0].line ?? 1,
        message: `not valid YAML: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    );
  const root = doc.contents;
  if (!isMap(root) || root.items.length !== 1)
    throw invalidAt([
      {
        line: 1,
        message: `expected exactly one automation (one top-level key such as "procedure.morning:", "event.hook.OnDoor:" or "cron.Nightly:"), got ${isMap(root) ? `${root.items.length} keys` : 'no mapping'}`,
      },
    ]);
  const pair = root.items[0]!;
  const key = isScalar(pair.key) ? String(pair.key.value) : '';
  if (!/^(procedure\.|event\.hook\.|cron\.)/.test(key))
    throw invalidAt([
      {
        line: lineOf(counter, pair.key) ?? 1,
        message: `"${key}" is not an automation: its key starts with procedure., event.hook. or cron.`,
      },
    ]);
  const value: unknown = (doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>)[key];
  return { text, key, value, doc, counter, node: pair.value ?? null };
}

/** The 1-based line where `node` starts, or null. */
export function lineOf(counter: LineCounter, node: Node | null | undefined): number | null {
  const start = node?.range?.[0];
  return start === undefined ? null : counter.linePos(start).line;
}

/** The node of `key` in the mapping `node` (the key's node, for its line), or null. */
function keyNode(node: Node | null, key: string): Node | null {
  if (!isMap(node)) return null;
  const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return (pair?.key as Node | undefined) ?? null;
}

/** The node of the step list: a procedure's value, a hook's `then`, a cron's `actions`. */
export function stepListNode(s: Submitted): Node | null {
  if (s.key.startsWith('procedure.')) return s.node;
  const field = s.key.startsWith('cron.') ? 'actions' : 'then';
  return isMap(s.node) ? ((s.node.get(field, true) as Node | undefined) ?? null) : null;
}

/** The step node at a loader path (`step 2 > if > step 1`), from the step list node. */
export function stepNode(list: Node | null, path: string): Node | null {
  let node: Node | null = list;
  let found: Node | null = null;
  for (const [, step, block] of path.matchAll(/step (\d+)|> (if|elif|while|for|fork|else)\b/g)) {
    if (step !== undefined) {
      const index = Number(step) - 1;
      if (isSeq(node)) node = (node.items[index] as Node | undefined) ?? null;
      else if (!(isMap(node) && index === 0)) node = null;
    } else if (block !== undefined) {
      const first = isMap(node) ? node.items[0] : undefined;
      node = isPair(first) ? ((first.value as Node | null) ?? null) : null;
    }
    if (!node) break;
    found = node;
  }
  return found;
}

/**
 * The line of the submitted text a loader error is about: the step its path names, else the
 * field it names, else the automation's key. The message loses the file and key it starts with.
 *
 * @example
 * errorAt(s, '/etc/pipit/automations.yaml: cron.A: cron.A actions step 2: unknown step key');
 * // {line: 5, message: 'cron.A actions step 2: unknown step key'}
 */
export function errorAt(s: Submitted, message: string, file: string): LineError {
  let text = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
  if (text.startsWith(`${s.key}: `) && !text.startsWith(`${s.key}: ${s.key}`))
    text = text.slice(s.key.length + 2);
  const keyLine = lineOf(s.counter, s.doc.contents) ?? 1;
  const location = /\bstep \d+[^:]*/.exec(text)?.[0];
  if (location) {
    const line = lineOf(s.counter, stepNode(stepListNode(s), location));
    if (line !== null) return { line, message: text };
  }
  if (/event kind/.test(text)) {
    const condition = isMap(s.node) ? (s.node.get('if', true) as Node | undefined) : undefined;
    const line = lineOf(s.counter, keyNode(condition ?? null, 'type') ?? keyNode(s.node, 'if'));
    if (line !== null) return { line, message: text };
  }
  const unknown = /unknown keys? "([^"]+)"/.exec(text)?.[1];
  const line = unknown ? lineOf(s.counter, keyNode(s.node, unknown)) : null;
  if (line !== null) return { line, message: text };
  // A field named in the message: the cron's by name, the others when quoted ("if" is a word too).
  for (const field of ['cron_expression', 'timezone', 'once', 'if', 'then', 'actions']) {
    const named = field.includes('_') || field === 'timezone' ? `\\b${field}\\b` : `"${field}"`;
    if (!new RegExp(named).test(text)) continue;
    const at = lineOf(s.counter, keyNode(s.node, field));
    if (at !== null) return { line: at, message: text };
  }
  return { line: keyLine, message: text };
}
