/**
 * Python's `str.format` for `'{} is {}'.format(a, b)`, limited to plain values: fields are `{}`,
 * `{0}` or `{name}` only. Attribute and index access in fields (`{0.__class__}`, `{0[key]}`),
 * conversions (`{!r}`) and nested fields (`{:{width}}`) are refused, so a format string can never
 * reach anything but the arguments it is given. Format specs follow Python's mini-language
 * (`[[fill]align][sign][0][width][,|_][.precision][type]`, types `s d x X o b f F e E g G %`) with
 * widths and precisions up to 1000; `#`, `z` and the types `c`/`n` are refused.
 */
import { exponentDigits, fixedDigits, floatRepr, generalDigits } from './decimal.ts';
import { FunctionArgumentError, characters, pyStr, pyTypeName } from './python.ts';
import { MAX_STRING_LENGTH } from '../values.ts';

/** A bad format string or a value that does not fit its spec. */
export class FormatError extends FunctionArgumentError {}

interface Spec {
  readonly raw: string;
  readonly fill: string | null;
  readonly align: string;
  readonly sign: string;
  readonly zero: boolean;
  readonly width: number;
  readonly grouping: string;
  readonly precision: number | null;
  readonly type: string;
}

interface Field {
  readonly key: number | string;
  readonly spec: Spec;
}

/** Widest field and longest precision accepted. */
export const MAX_FORMAT_WIDTH = 1000;

const FORMAT_SPEC = /^([-+ ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([a-zA-Z%])?$/;
const TYPES = new Set(['s', 'd', 'x', 'X', 'o', 'b', 'f', 'F', 'e', 'E', 'g', 'G', '%', '']);
const ALIGNS = new Set(['<', '>', '=', '^']);
const RADIX: ReadonlyMap<string, number> = new Map([
  ['x', 16],
  ['X', 16],
  ['o', 8],
  ['b', 2],
]);

function parseSpec(raw: string): Spec {
  const chars = Array.from(raw);
  let fill: string | null = null;
  let align = '';
  if (chars.length >= 2 && ALIGNS.has(chars[1]!)) [fill, align] = [chars[0]!, chars[1]!];
  else if (chars.length >= 1 && ALIGNS.has(chars[0]!)) align = chars[0]!;
  const rest = chars.slice(fill === null ? (align === '' ? 0 : 1) : 2).join('');
  const m = FORMAT_SPEC.exec(rest);
  if (m === null) throw new FormatError(`invalid format spec '${raw}'`);
  const [, sign = '', z, hash, zero, width = '0', grouping = '', precision, type = ''] = m;
  if (z !== undefined || hash !== undefined) {
    throw new FormatError(`format option '${z ?? hash ?? ''}' is not supported ('${raw}')`);
  }
  if (!TYPES.has(type)) throw new FormatError(`format type '${type}' is not supported`);
  // Like Python, a leading 0 is the zero-padding flag only when no fill character was given.
  const zeroFlag = zero !== undefined && fill === null;
  const digits = (zero !== undefined && !zeroFlag ? '0' : '') + width;
  if (Number(digits) > MAX_FORMAT_WIDTH || Number(precision ?? 0) > MAX_FORMAT_WIDTH) {
    throw new FormatError(
      `format widths and precisions over ${MAX_FORMAT_WIDTH} are not supported`,
    );
  }
  if (zeroFlag && grouping !== '') {
    throw new FormatError(
      `zero-padding with a '${grouping}' separator is not supported ('${raw}')`,
    );
  }
  return {
    raw,
    fill,
    align,
    sign,
    zero: zeroFlag,
    width: Number(digits),
    grouping,
    precision: precision === undefined ? null : Number(precision),
    type,
  };
}

/**
 * Parses a format string into literal text and fields, refusing what is not supported. Throws
 * FormatError with Python's wording where Python also fails.
 *
 * @example
 * parseFormat('{} is {name:>5}'); // [{key: 0, ...}, ' is ', {key: 'name', ...}]
 */
export function parseFormat(template: string): (string | Field)[] {
  const segments: (string | Field)[] = [];
  let text = '';
  let automatic: boolean | null = null;
  let counter = 0;
  for (let i = 0; i < template.length; i++) {
    const ch = template[i]!;
    if ((ch === '{' || ch === '}') && template[i + 1] === ch) {
      text += ch;
      i++;
      continue;
    }
    if (ch === '}') throw new FormatError("Single '}' encountered in format string");
    if (ch !== '{') {
      text += ch;
      continue;
    }
    const close = template.indexOf('}', i);
    if (close < 0) {
      throw new FormatError(
        i === template.length - 1
          ? "Single '{' encountered in format string"
          : "expected '}' before end of string",
      );
    }
    const body = template.slice(i + 1, close);
    if (body.includes('{')) throw new FormatError('nested format fields are not supported');
    const colon = body.indexOf(':');
    const name = colon < 0 ? body : body.slice(0, colon);
    if (name.includes('!')) {
      throw new FormatError(`format conversions ('{${body}}') are not supported`);
    }
    let key: number | string;
    if (name === '' || /^\d+$/.test(name)) {
      if (automatic === (name !== '')) {
        throw new FormatError(
          name === ''
            ? 'cannot switch from manual field specification to automatic field numbering'
            : 'cannot switch from automatic field numbering to manual field specification',
        );
      }
      automatic = name === '';
      key = name === '' ? counter++ : Number(name);
    } else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      key = name;
    } else {
      throw new FormatError(
        `format fields may only be {}, {0} or {name}; '{${body}}' is not allowed`,
      );
    }
    if (text !== '') segments.push(text);
    text = '';
    segments.push({ key, spec: parseSpec(colon < 0 ? '' : body.slice(colon + 1)) });
    i = close;
  }
  if (text !== '') segments.push(text);
  return segments;
}

function pad(sign: string, body: string, spec: Spec, numeric: boolean): string {
  const length = characters(sign + body).length;
  if (spec.width <= length) return sign + body;
  const fill = spec.fill ?? (spec.zero ? '0' : ' ');
  const align = spec.align || (spec.zero && numeric ? '=' : numeric ? '>' : '<');
  const n = spec.width - length;
  if (align === '<') return sign + body + fill.repeat(n);
  if (align === '^') {
    const left = Math.floor(n / 2);
    return fill.repeat(left) + sign + body + fill.repeat(n - left);
  }
  if (align === '=') return sign + fill.repeat(n) + body;
  return fill.repeat(n) + sign + body;
}

function group(body: string, separator: string, size: number): string {
  const digits = /^\d+/.exec(body)?.[0] ?? '';
  let grouped = '';
  for (let end = digits.length; end > 0; end -= size) {
    const part = digits.slice(Math.max(0, end - size), end);
    grouped = grouped === '' ? part : `${part}${separator}${grouped}`;
  }
  return grouped + body.slice(digits.length);
}

function formatString(value: string, spec: Spec): string {
  const fail = (what: string): never => {
    throw new FormatError(what);
  };
  if (spec.type !== '' && spec.type !== 's') {
    fail(`Unknown format code '${spec.type}' for object of type 'str'`);
  }
  if (spec.sign !== '') fail('Sign not allowed in string format specifier');
  if (spec.grouping !== '') fail(`Cannot specify '${spec.grouping}' with 's'.`);
  if (spec.align === '=') fail("'=' alignment not allowed in string format specifier");
  const body =
    spec.precision === null ? value : characters(value).slice(0, spec.precision).join('');
  return pad('', body, spec, false);
}

function formatNumber(x: number, spec: Spec, typeLabel: string): string {
  const { type, precision } = spec;
  const integral = Number.isInteger(x);
  const intType = type === 'd' || type === 'x' || type === 'X' || type === 'o' || type === 'b';
  if (type === 's' || (intType && !integral)) {
    throw new FormatError(`Unknown format code '${type}' for object of type '${typeLabel}'`);
  }
  if (intType && precision !== null) {
    throw new FormatError('Precision not allowed in integer format specifier');
  }
  const abs = Math.abs(x);
  let body: string;
  if (intType || (type === '' && integral && precision === null)) {
    const radix = RADIX.get(type) ?? 10;
    body = BigInt(abs).toString(radix);
    if (type === 'X') body = body.toUpperCase();
  } else if (type === 'f' || type === 'F') body = fixedDigits(abs, precision ?? 6);
  else if (type === '%') body = `${fixedDigits(Math.abs(x * 100), precision ?? 6)}%`;
  else if (type === 'e' || type === 'E') body = exponentDigits(abs, precision ?? 6);
  else if (type === 'g' || type === 'G') body = generalDigits(abs, precision ?? 6, false);
  else body = precision === null ? floatRepr(abs) : generalDigits(abs, precision, true);
  if (type === 'E' || type === 'G') body = body.toUpperCase();
  if (spec.grouping !== '') {
    const wide = type === 'x' || type === 'X' || type === 'o' || type === 'b';
    if (wide && spec.grouping === ',') throw new FormatError(`Cannot specify ',' with '${type}'.`);
    body = group(body, spec.grouping, wide ? 4 : 3);
  }
  const sign = x < 0 ? '-' : spec.sign === '-' ? '' : spec.sign;
  return pad(sign, body, spec, true);
}

/** Python's `format(value, spec)` for plain values; an empty spec is `str(value)`. */
function formatWith(value: unknown, spec: Spec): string {
  if (spec.raw === '') return pyStr(value);
  if (typeof value === 'string') return formatString(value, spec);
  if (typeof value === 'boolean' || typeof value === 'number') {
    return formatNumber(Number(value), spec, pyTypeName(value));
  }
  throw new FormatError(`unsupported format string passed to ${pyTypeName(value)}.__format__`);
}

/**
 * `template.format(*args, **named)` with the limits above.
 *
 * @example
 * formatTemplate('{} is {:.1f}', ['pi', 3.14159], new Map()); // 'pi is 3.1'
 */
export function formatTemplate(
  template: string,
  args: readonly unknown[],
  named: ReadonlyMap<string, unknown>,
): string {
  let out = '';
  for (const segment of parseFormat(template)) {
    if (typeof segment === 'string') {
      out += segment;
    } else {
      const { key } = segment;
      if (typeof key === 'number' && key >= args.length) {
        throw new FormatError(`Replacement index ${key} out of range for positional args tuple`);
      }
      if (typeof key === 'string' && !named.has(key)) {
        throw new FormatError(`no keyword argument '${key}' for field '{${key}}'`);
      }
      out += formatWith(typeof key === 'number' ? args[key] : named.get(key), segment.spec);
    }
    if (out.length > MAX_STRING_LENGTH) {
      throw new FormatError(`format(): result longer than ${MAX_STRING_LENGTH} characters`);
    }
  }
  return out;
}
