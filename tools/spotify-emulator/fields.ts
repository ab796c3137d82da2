import { ApiError } from './http.ts';

/** A parsed `fields` selection: included keys (with optional sub-selection) and excluded keys. */
export interface FieldSelection {
  include: Map<string, FieldSelection | true>;
  exclude: Set<string>;
}

const empty = (): FieldSelection => ({ include: new Map(), exclude: new Set() });

/**
 * Parse Spotify's `fields` grammar: `a,b.c,d(e,f(g)),!h`.
 * @example
 * parseFields('items(added_at,item(name,album(name)))');
 */
export function parseFields(text: string): FieldSelection {
  let pos = 0;
  const fail = (): never => {
    throw new ApiError(400, 'Invalid fields parameter');
  };
  const ident = (): string => {
    const match = /^[A-Za-z0-9_]+/.exec(text.slice(pos));
    if (!match) return fail();
    pos += match[0].length;
    return match[0];
  };
  const list = (): FieldSelection => {
    const selection = empty();
    for (;;) {
      const negate = text[pos] === '!';
      if (negate) pos++;
      const path = [ident()];
      while (text[pos] === '.') {
        pos++;
        path.push(ident());
      }
      let sub: FieldSelection | true = true;
      if (text[pos] === '(') {
        pos++;
        sub = list();
        if (text[pos] !== ')') fail();
        pos++;
      }
      if (negate) {
        if (path.length !== 1 || sub !== true) fail();
        selection.exclude.add(path[0]!);
      } else {
        merge(selection, path, sub);
      }
      if (text[pos] !== ',') return selection;
      pos++;
    }
  };
  const result = list();
  if (pos !== text.length) fail();
  return result;
}

// `a.b.c` is `a(b(c))`; repeated prefixes merge (`a.b,a.c` = `a(b,c)`).
function merge(selection: FieldSelection, path: string[], sub: FieldSelection | true): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    const existing = selection.include.get(head);
    if (existing === undefined || sub === true) selection.include.set(head, sub);
    else if (existing !== true) for (const [k, v] of sub.include) merge(existing, [k], v);
    return;
  }
  let child = selection.include.get(head);
  if (child === true) return;
  if (child === undefined) {
    child = empty();
    selection.include.set(head, child);
  }
  merge(child, rest, sub);
}

/**
 * Project a JSON value through a selection; arrays apply the selection to each element, and
 * unknown names are ignored.
 * @example
 * applyFields({ a: 1, b: 2 }, parseFields('a')); // { a: 1 }
 */
export function applyFields(value: unknown, selection: FieldSelection): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFields(v, selection));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (selection.include.size > 0) {
    for (const [key, sub] of selection.include) {
      if (!(key in source)) continue;
      out[key] = sub === true ? source[key] : applyFields(source[key], sub);
    }
    return out;
  }
  for (const [key, v] of Object.entries(source)) if (!selection.exclude.has(key)) out[key] = v;
  return out;
}
