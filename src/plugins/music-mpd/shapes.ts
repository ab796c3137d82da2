// MPD's answers in the shapes python-mpd2 gives them, which Platypush's actions return as they
// are: keys in lower case, values as MPD's strings, a key seen twice in one object (two artists)
// a list of its values.

/** One object of an answer: `{ file: 'a.flac', artist: ['A', 'B'], time: '255' }`. */
export type MpdObject = Record<string, string | string[]>;

/** A `key: value` line split in two; undefined for a line that is not one. */
function pair(line: string): [string, string] | undefined {
  const at = line.indexOf(': ');
  return at > 0 ? [line.slice(0, at).toLowerCase(), line.slice(at + 2)] : undefined;
}

/**
 * Splits an answer into objects, a new one at each key in `delimiters` (`file` for songs).
 *
 * @example
 * toObjects(['file: a', 'Title: A', 'file: b'], ['file']); // [{ file: 'a', title: 'A' }, { file: 'b' }]
 */
export function toObjects(lines: readonly string[], delimiters: readonly string[]): MpdObject[] {
  const out: MpdObject[] = [];
  let obj: MpdObject = {};
  let empty = true;
  for (const line of lines) {
    const kv = pair(line);
    if (!kv) continue;
    const [key, value] = kv;
    if (!empty && delimiters.includes(key)) {
      out.push(obj);
      obj = {};
    } else if (key in obj) {
      const prev = obj[key]!;
      obj[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
      continue;
    }
    obj[key] = value;
    empty = false;
  }
  if (!empty) out.push(obj);
  return out;
}

/**
 * An answer that is one object (`status`, `currentsong`): `{}` when it is empty.
 *
 * @example
 * toObject(['volume: 40', 'state: play']); // { volume: '40', state: 'play' }
 */
export function toObject(lines: readonly string[]): MpdObject {
  return toObjects(lines, [])[0] ?? {};
}

/**
 * An answer that is a list of one key's values (`listplaylist`: its files).
 *
 * @example
 * toList(['file: a', 'file: b']); // ['a', 'b']
 */
export function toList(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const kv = pair(line);
    return kv ? [kv[1]] : [];
  });
}

/** Songs: a new object at each `file`. */
export const toSongs = (lines: readonly string[]): MpdObject[] => toObjects(lines, ['file']);
