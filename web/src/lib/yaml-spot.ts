/**
 * Where the cursor is in an automation's YAML, as far as completion cares: typing an action name
 * (after `action:`) or a key of an action's `args:` block. Plain text in, so it is tested without
 * an editor; the YAML is read line by line, by indentation, since a half-typed document is seldom
 * valid YAML.
 */

/** What can be completed at the cursor. */
export type YamlSpot =
  | { kind: 'action'; from: number; prefix: string }
  | { kind: 'arg'; action: string; from: number; prefix: string; used: string[] };

interface Line {
  text: string;
  /** Column of the line's key: after its indentation and any `- ` list markers. */
  keyColumn: number;
  key: string | null;
  rest: string;
  blank: boolean;
}

function readLine(text: string): Line {
  const m = /^(\s*(?:-\s+)*)([A-Za-z_][\w.-]*)?\s*(:?)(.*)$/.exec(text) ?? ['', '', '', '', ''];
  const keyColumn = (m[1] ?? '').length;
  const trimmed = text.trim();
  return {
    text,
    keyColumn,
    key: m[3] ? (m[2] ?? null) : null,
    rest: (m[4] ?? '').trim(),
    blank: trimmed === '' || trimmed.startsWith('#'),
  };
}

/** The key column of the step a line belongs to (its `- ` marker's column + 2) if it starts one. */
function startsStep(line: Line): boolean {
  return /^\s*-\s/.test(line.text);
}

/** The value of `action:` among the keys of the step whose keys are at `column`, around `at`. */
function actionOfStep(lines: Line[], at: number, column: number): string | null {
  const valueOf = (l: Line) =>
    l.key === 'action' && l.keyColumn === column ? l.rest.replace(/^['"]|['"]$/g, '') : null;
  // Upwards to the step's `- ` line, then downwards to the next step or a shallower line.
  for (let i = at; i >= 0; i--) {
    const l = lines[i]!;
    if (l.blank) continue;
    if (l.keyColumn < column) break;
    const v = valueOf(l);
    if (v) return v;
    if (l.keyColumn === column && startsStep(l)) break;
  }
  for (let i = at + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.blank) continue;
    if (l.keyColumn < column || (l.keyColumn === column && startsStep(l))) break;
    const v = valueOf(l);
    if (v) return v;
  }
  return null;
}

/**
 * What the cursor at `pos` in `doc` is typing, or null when nothing is completed there.
 *
 * @example
 * yamlSpot('- action: utils.ec', 18); // {kind: 'action', from: 10, prefix: 'utils.ec'}
 */
export function yamlSpot(doc: string, pos: number): YamlSpot | null {
  const lineStart = doc.lastIndexOf('\n', pos - 1) + 1;
  const before = doc.slice(lineStart, pos);
  const action = /^\s*(?:-\s+)?action:\s*['"]?([\w.]*)$/.exec(before);
  if (action) return { kind: 'action', from: pos - action[1]!.length, prefix: action[1]! };

  const key = /^(\s*)([A-Za-z_][\w-]*)?$/.exec(before);
  if (!key) return null;
  const column = key[1]!.length;
  const prefix = key[2] ?? '';
  const all = doc.split('\n').map(readLine);
  const here = doc.slice(0, lineStart).split('\n').length - 1;
  // The parent: the nearest line above that is shallower.
  let parent = -1;
  for (let i = here - 1; i >= 0; i--) {
    const l = all[i]!;
    if (!l.blank && l.keyColumn < column) {
      parent = i;
      break;
    }
  }
  const p = all[parent];
  if (!p || p.key !== 'args' || (p.rest !== '' && !p.rest.startsWith('#'))) return null;
  const name = actionOfStep(all, parent, p.keyColumn);
  if (!name) return null;
  const used: string[] = [];
  for (let i = parent + 1; i < all.length; i++) {
    const l = all[i]!;
    if (l.blank || i === here) continue;
    if (l.keyColumn < column) break;
    if (l.keyColumn === column && l.key) used.push(l.key);
  }
  return { kind: 'arg', action: name, from: pos - prefix.length, prefix, used };
}
