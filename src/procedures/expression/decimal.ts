/**
 * Exact decimal rounding of doubles, the way Python does it: `round()` and the `f`/`e`/`g`/`%`
 * format types round the binary value exactly, ties to even (`round(2.5)` is 2, `round(2.675, 2)`
 * is 2.67 because 2.675 is stored as 2.67499...). JS's `toFixed` rounds ties away from zero, so the
 * digits are computed here with BigInt arithmetic instead.
 */

const view = new DataView(new ArrayBuffer(8));

/** |x| as `m * 2^e` exactly. */
function decompose(x: number): { m: bigint; e: number } {
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exponent = (hi >>> 20) & 0x7ff;
  const m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exponent === 0) return { m, e: -1074 };
  return { m: m | (1n << 52n), e: exponent - 1075 };
}

/**
 * `|x| * 10^k` rounded to an integer, ties to even, computed exactly.
 *
 * @example
 * scaledInteger(2.5, 0); // 2n
 * scaledInteger(0.125, 2); // 12n
 */
export function scaledInteger(x: number, k: number): bigint {
  const { m, e } = decompose(x);
  let num = m;
  let den = 1n;
  if (e > 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  if (k > 0) num *= 10n ** BigInt(k);
  else den *= 10n ** BigInt(-k);
  const q = num / den;
  const twice = 2n * (num % den);
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

/**
 * Python's `round(x, ndigits)`: the double nearest to x rounded to `ndigits` decimals, ties to
 * even; `ndigits` may be negative. `-0` comes back as `0`.
 *
 * @example
 * pyRound(2.5, 0); // 2
 * pyRound(1250, -2); // 1200
 */
export function pyRound(x: number, ndigits: number): number {
  if (x === 0 || ndigits > 400) return x === 0 ? 0 : x;
  if (ndigits < -400) return 0;
  const digits = scaledInteger(x, ndigits);
  const value = Number(`${digits}e${-ndigits}`);
  return value === 0 ? 0 : x < 0 ? -value : value;
}

/**
 * The digits of |x| with `decimals` places, ties to even (Python's `'%.{decimals}f'`, no sign).
 *
 * @example
 * fixedDigits(0.125, 2); // '0.12'
 */
export function fixedDigits(x: number, decimals: number): string {
  const text = scaledInteger(x, decimals)
    .toString()
    .padStart(decimals + 1, '0');
  if (decimals === 0) return text;
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** |x| rounded to `precision + 1` significant digits: the digit string and the decimal exponent. */
function significant(x: number, precision: number): { digits: string; exponent: number } {
  if (x === 0) return { digits: '0'.repeat(precision + 1), exponent: 0 };
  let exponent = Number(Math.abs(x).toExponential().split('e')[1]);
  for (;;) {
    const digits = scaledInteger(x, precision - exponent).toString();
    if (digits.length > precision + 1) exponent++;
    else if (digits.length < precision + 1) exponent--;
    else return { digits, exponent };
  }
}

function exponentSuffix(exponent: number): string {
  const sign = exponent < 0 ? '-' : '+';
  return `e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/**
 * |x| in scientific notation with `precision` decimals (Python's `'%.{precision}e'`, no sign).
 *
 * @example
 * exponentDigits(1234.5, 2); // '1.23e+03'
 */
export function exponentDigits(x: number, precision: number): string {
  const { digits, exponent } = significant(x, precision);
  const mantissa = precision === 0 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return mantissa + exponentSuffix(exponent);
}

/** Places the decimal point `point` digits into `digits` (padding with zeros either side). */
function placePoint(digits: string, point: number): string {
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * Python's general format of |x| (`'g'` with `precision` significant digits); with `addDot0` it is
 * the format of a float with a precision but no type (`'{:.3}'`): a `.0` is kept on integral values
 * and scientific notation starts one digit earlier.
 *
 * @example
 * generalDigits(1234.5, 3, false); // '1.23e+03'
 * generalDigits(12, 3, true); // '12.0'
 */
export function generalDigits(x: number, precision: number, addDot0: boolean): string {
  const p = Math.max(precision, 1);
  const { digits, exponent } = significant(x, p - 1);
  const point = exponent + 1;
  if (point <= -4 || point > (addDot0 ? p - 1 : p)) {
    const rest = digits.slice(1).replace(/0+$/, '');
    return `${digits[0]}${rest === '' ? '' : `.${rest}`}${exponentSuffix(exponent)}`;
  }
  const fixed = trimZeros(placePoint(digits, point));
  return addDot0 && !fixed.includes('.') ? `${fixed}.0` : fixed;
}

/**
 * Python's `repr()` of a float for |x|: the shortest digits that read back as x, in fixed notation
 * from 1e-4 to 1e16 and scientific notation outside.
 *
 * @example
 * floatRepr(1e16); // '1e+16'
 * floatRepr(0.00001); // '1e-05'
 */
export function floatRepr(x: number): string {
  const [mantissa, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exponent = Number(exp);
  const point = exponent + 1;
  if (point <= -4 || point > 16) {
    const rest = digits.slice(1);
    return `${digits[0]}${rest === '' ? '' : `.${rest}`}${exponentSuffix(exponent)}`;
  }
  const fixed = placePoint(digits, point);
  return fixed.includes('.') ? fixed : `${fixed}.0`;
}
