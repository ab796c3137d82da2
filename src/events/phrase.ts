import { PipitError } from '../core/errors.ts';
import { isPlainObject } from '../procedures/values.ts';

const PLACEHOLDER = /\$\{\s*([A-Za-z_]\w*)\s*\}/g;
const MAX_PLACEHOLDERS = 8;
/** Most `?` in one phrase: each may double the ways a word can match, so they are few. */
const MAX_OPTIONALS = 8;
const MAX_PATTERN = 512;
const MAX_INPUT = 10_000;

/** A compiled phrase: Platypush's word-by-word, case-insensitive match, anywhere in the text. */
export interface Phrase {
  test(text: unknown): boolean;
  bind(text: unknown): Record<string, string> | undefined;
}

/** True when a condition value is a phrase pattern (`"play ${title} by ${artist}"`). */
export function isPhrase(value: unknown): value is string {
  return typeof value === 'string' && new RegExp(PLACEHOLDER.source).test(value);
}

/** One word of a pattern: a `${name}` placeholder, or a word (a small regex, maybe binding). */
type Word =
  | { kind: 'placeholder'; name: string }
  | { kind: 'word'; re: RegExp; names: string[]; optional: boolean };

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean);

// A word of the pattern as a regex of the whole word: Platypush's "basic regexes" — groups,
// alternation and `?` (`(the)?`, `lights?`, `(on|off)`) — and every other character literal.
function compileWord(
  word: string,
  fail: (what: string) => never,
  names: string[],
): { source: string; optionals: number } {
  let source = '';
  let depth = 0;
  let optionals = 0;
  let last = 0;
  // Whether a "?" may follow: after a character or a group, not after "(", "|" or another "?".
  let quantifiable = false;
  const literal = (text: string) => {
    for (const ch of text) {
      if (ch === '(') {
        depth++;
        source += '(?:';
      } else if (ch === ')') {
        if (--depth < 0) fail(`a ")" without its "(" in "${word}"`);
        source += ')';
      } else if (ch === '|') source += '|';
      else if (ch === '?') {
        if (!quantifiable) fail(`a "?" with nothing before it in "${word}"`);
        optionals++;
        source += '?';
      } else source += ch.replace(/[.*+^${}[\]\\/]/g, '\\$&');
      quantifiable = ch !== '(' && ch !== '|' && ch !== '?';
    }
  };
  for (const m of word.matchAll(PLACEHOLDER)) {
    literal(word.slice(last, m.index));
    names.push(m[1]!);
    source += `(?<${m[1]}>.+?)`;
    quantifiable = false;
    last = m.index + m[0].length;
  }
  literal(word.slice(last));
  if (depth !== 0) fail(`a "(" without its ")" in "${word}"`);
  return { source, optionals };
}

function compileWords(pattern: string, path: string): { words: Word[]; names: string[] } {
  const fail = (what: string): never => {
    throw new PipitError('CONFIG_INVALID', `condition ${path}: ${what}`);
  };
  if (pattern.length > MAX_PATTERN) fail(`a phrase is at most ${MAX_PATTERN} characters`);
  const names: string[] = [];
  const out: Word[] = [];
  let optionals = 0;
  for (const word of words(pattern)) {
    const whole = /^\$\{\s*([A-Za-z_]\w*)\s*\}$/.exec(word);
    if (whole) {
      if (out.at(-1)?.kind === 'placeholder')
        fail(`put some text between the placeholders of "${pattern}"`);
      names.push(whole[1]!);
      out.push({ kind: 'placeholder', name: whole[1]! });
      continue;
    }
    const before = names.length;
    const compiled = compileWord(word, fail, names);
    optionals += compiled.optionals;
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${compiled.source})$`, 'iu');
    } catch (err) {
      return fail(`"${word}" is not a valid word pattern: ${(err as Error).message}`);
    }
    out.push({ kind: 'word', re, names: names.slice(before), optional: re.test('') });
  }
  if (optionals > MAX_OPTIONALS) fail(`at most ${MAX_OPTIONALS} "?" in a phrase`);
  if (names.length > MAX_PLACEHOLDERS)
    fail(`at most ${MAX_PLACEHOLDERS} placeholders in a phrase, "${pattern}" has ${names.length}`);
  const dup = names.find((name, i) => names.indexOf(name) !== i);
  if (dup !== undefined) fail(`"${dup}" appears twice in "${pattern}"`);
  return { words: out, names };
}

// Platypush's matching (SpeechRecognizedEvent), word by word and in one pass: a word of the text
// that the pattern's next word does not match is skipped, so the pattern may be found anywhere; an
// optional word that does not match is passed over; a placeholder takes one word, then more until
// the pattern's next word matches (the last placeholder takes the rest). Linear in the text.
function matchWords(pattern: Word[], text: string[]): Record<string, string> | undefined {
  const bound: Record<string, string> = {};
  let i = 0;
  let j = 0;
  while (i < text.length && j < pattern.length) {
    const word = pattern[j]!;
    if (word.kind === 'placeholder') {
      const start = i++;
      const next = pattern[j + 1];
      if (next === undefined) i = text.length;
      else if (next.kind === 'word') while (i < text.length && !next.re.test(text[i]!)) i++;
      bound[word.name] = text.slice(start, i).join(' ');
      j++;
      continue;
    }
    const m = word.re.exec(text[i]!);
    if (m) {
      Object.assign(bound, m.groups);
      i++;
      j++;
    } else if (word.optional) j++;
    else i++;
  }
  while (
    j < pattern.length &&
    pattern[j]!.kind === 'word' &&
    (pattern[j] as { optional: boolean }).optional
  )
    j++;
  return j === pattern.length ? bound : undefined;
}

/**
 * Compiles a Platypush phrase pattern, matched as Platypush matches a spoken phrase: word by word,
 * case-insensitively, anywhere in the text (words of the text the pattern does not name are passed
 * over). A word may use Platypush's basic regexes — `(the)?`, `lights?`, `(on|off)` — and every
 * `${name}` placeholder binds the words it covers for the hook's steps. At most 8 placeholders and
 * 8 `?`; two placeholders need a word between them.
 *
 * @example
 * compilePhrase('This is (the)? answer: ${answer}', 'phrase').bind('GARBAGE this is the answer: 42');
 * // { answer: '42' }
 */
export function compilePhrase(pattern: string, path: string): Phrase {
  const { words: compiled } = compileWords(pattern, path);
  const exec = (text: unknown) =>
    typeof text === 'string' && text.length <= MAX_INPUT
      ? matchWords(compiled, words(text))
      : undefined;
  return {
    test: (text) => exec(text) !== undefined,
    bind: (text) => exec(text),
  };
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
