import { PipitError } from '../core/errors.ts';
import { isPlainObject } from '../procedures/values.ts';

const PLACEHOLDER = /\$\{\s*([A-Za-z_]\w*)\s*\}/g;
const MAX_PLACEHOLDERS = 8;
const MAX_INPUT = 10_000;

/** A compiled phrase: a whole-phrase, case-insensitive pattern with named groups. */
export interface Phrase {
  test(text: unknown): boolean;
  bind(text: unknown): Record<string, string> | undefined;
}

/** True when a condition value is a phrase pattern (`"play ${title} by ${artist}"`). */
export function isPhrase(value: unknown): value is string {
  return typeof value === 'string' && new RegExp(PLACEHOLDER.source).test(value);
}

const normalise = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * Compiles a Platypush phrase pattern: literal words (compared case-insensitively, any run of
 * spaces as one) around `${name}` placeholders, each of which matches one or more characters and
 * binds `name` for the hook's steps. The whole field must match. Two placeholders need text between
 * them, and at most 8 are allowed (which keeps matching linear in practice).
 *
 * @example
 * compilePhrase('play ${title} by ${artist}', 'subtype').bind('Play Yesterday by The Beatles');
 * // { title: 'Yesterday', artist: 'The Beatles' }
 */
export function compilePhrase(pattern: string, path: string): Phrase {
  const names: string[] = [];
  let source = '';
  let last = 0;
  let previousEnd = -1;
  for (const m of normalise(pattern).matchAll(PLACEHOLDER)) {
    const literal = normalise(pattern).slice(last, m.index);
    if (previousEnd === m.index)
      throw new PipitError(
        'CONFIG_INVALID',
        `condition ${path}: put some text between the placeholders of "${pattern}"`,
      );
    const name = m[1]!;
    if (names.includes(name))
      throw new PipitError(
        'CONFIG_INVALID',
        `condition ${path}: "${name}" appears twice in "${pattern}"`,
      );
    names.push(name);
    source += escape(literal) + `(?<${name}>.+?)`;
    last = m.index + m[0].length;
    previousEnd = last;
  }
  if (names.length > MAX_PLACEHOLDERS)
    throw new PipitError(
      'CONFIG_INVALID',
      `condition ${path}: at most ${MAX_PLACEHOLDERS} placeholders in a phrase, "${pattern}" has ${names.length}`,
    );
  source += escape(normalise(pattern).slice(last));
  const re = new RegExp(`^${source}$`, 'iu');
  const exec = (text: unknown) =>
    typeof text === 'string' && text.length <= MAX_INPUT ? re.exec(normalise(text)) : null;
  return {
    test: (text) => exec(text) !== null,
    bind: (text) => {
      const m = exec(text);
      return m ? { ...(m.groups as Record<string, string>) } : undefined;
    },
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
}

/**
 * The variables the phrase patterns of a hook condition bind for one event: every field whose
 * condition is a phrase, read from the event. Empty when there is none (or it does not match).
 *
 * @example
 * const bind = compileBindings({ type: 'CustomEvent', subtype: 'play ${title}' });
 * bind({ subtype: 'play Yesterday' }); // { title: 'Yesterday' }
 */
export function compileBindings(
  condition: unknown,
): (event: Record<string, unknown>) => Record<string, string> {
  const phrases: { path: string[]; phrase: Phrase }[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (isPhrase(value)) phrases.push({ path, phrase: compilePhrase(value, path.join('.')) });
    else if (isPlainObject(value))
      for (const [k, v] of Object.entries(value)) if (!k.startsWith('$')) walk(v, [...path, k]);
  };
  if (isPlainObject(condition))
    for (const [k, v] of Object.entries(condition)) if (k !== 'type') walk(v, [k]);
  if (!phrases.length) return () => ({});
  return (event) => {
    const out: Record<string, string> = {};
    for (const { path, phrase } of phrases) {
      let value: unknown = event;
      for (const key of path)
        value = isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
      Object.assign(out, phrase.bind(value) ?? {});
    }
    return out;
  };
}
