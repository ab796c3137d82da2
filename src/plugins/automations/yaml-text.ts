import { createHash } from 'node:crypto';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { PipitError } from '../../core/errors.ts';

/**
 * One top-level key of a YAML file as text: its lines from the comments just above it (no blank
 * line between) to the line before the next key's block, without trailing blank lines.
 */
export interface TextBlock {
  key: string;
  /** 0-based index of its first line (its leading comments). */
  start: number;
  /** 0-based index of the line of its key. */
  keyLine: number;
  /** 0-based index of the line after its last non-blank line. */
  end: number;
}

/** A file's text split into lines, with its top-level blocks. */
export interface SplitFile {
  lines: string[];
  blocks: TextBlock[];
}

/**
 * The top-level blocks of a YAML file's text, in order. CONFIG_INVALID when the text is not a
 * block mapping (a flow mapping `{...}` at the top cannot be edited a key at a time).
 *
 * @example
 * splitBlocks('# lights\ncron.A:\n  cron_expression: "* * * * *"\n').blocks[0];
 * // {key: 'cron.A', start: 0, keyLine: 1, end: 3}
 */
export function splitBlocks(text: string, file: string): SplitFile {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  const root = doc.contents;
  if (root === null || root === undefined) return { lines, blocks: [] };
  if (!isMap(root) || root.flow)
    throw new PipitError(
      'CONFIG_INVALID',
      `${file}: the top level is not a block mapping of keys, so one automation cannot be changed in it: edit the file by hand`,
    );
  const keys: { key: string; line: number }[] = [];
  for (const pair of root.items) {
    const key = pair.key;
    if (!isScalar(key) || !key.range) continue;
    keys.push({ key: String(key.value), line: counter.linePos(key.range[0]).line - 1 });
  }
  const starts = keys.map(({ line }) => {
    let start = line;
    while (start > 0 && /^#/.test(lines[start - 1] ?? '')) start--;
    return start;
  });
  const blocks = keys.map(({ key, line }, i) => {
    let end = starts[i + 1] ?? lines.length;
    while (end > line + 1 && !(lines[end - 1] ?? '').trim()) end--;
    return { key, start: starts[i]!, keyLine: line, end };
  });
  return { lines, blocks };
}

/** The text of a block, ending with a newline. */
export function blockText(file: SplitFile, block: TextBlock): string {
  return `${file.lines.slice(block.start, block.end).join('\n')}\n`;
}

/**
 * An opaque version of an automation's text: a change since it was read changes it.
 *
 * @example
 * versionOf('cron.A:\n  ...\n'); // 'a1b2c3d4e5f60718'
 */
export function versionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The file's text with `block` replaced by `replacement` (null: removed); all else as it was. */
export function replaceBlock(
  file: SplitFile,
  block: TextBlock,
  replacement: string | null,
): string {
  const before = file.lines.slice(0, block.start);
  let after = file.lines.slice(block.end);
  if (replacement === null) {
    // The blank lines that separated it from its neighbours go with it: the file ends as it did,
    // and two blocks stay one blank line apart.
    if (after.every((line) => !line.trim())) {
      after = [];
      while (before.length && !before.at(-1)!.trim()) before.pop();
    } else if (!after[0]!.trim() && (before.length === 0 || !before.at(-1)!.trim()))
      after = after.slice(1);
    const text = [...before, ...after].join('\n');
    return text ? `${text}\n` : '';
  }
  const inserted = replacement.replace(/\n+$/, '').split('\n');
  return `${[...before, ...inserted, ...after].join('\n')}\n`;
}

/** The file's text with `addition` appended as a block of its own. */
export function appendBlock(text: string, addition: string): string {
  const body = addition.replace(/\n+$/, '');
  const head = text.replace(/\n+$/, '');
  return head ? `${head}\n\n${body}\n` : `${body}\n`;
}
