/** One result row: column name → value, as Platypush answers them. */
export type Row = Record<string, unknown>;

/**
 * A value as Platypush's JSON encoder would answer it: integers as numbers (as strings past
 * 2^53, where JSON numbers lose digits), bytes as `0x` + hex, dates as ISO 8601 text.
 *
 * @example
 * plainValue(42n); // 42
 * plainValue(Uint8Array.of(0, 255)); // '0x00ff'
 */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (value instanceof Uint8Array) return `0x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * A row with every value made plain by {@link plainValue} (and an ordinary prototype).
 *
 * @example
 * plainRow({ id: 1n, payload: Uint8Array.of(1) }); // { id: 1, payload: '0x01' }
 */
export function plainRow(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) out[key] = plainValue(value);
  return out;
}

/**
 * A value SQLite can bind: booleans as 1/0 (SQLite has no boolean type), lists and objects as
 * JSON text (what its JSON functions read); others as they are.
 *
 * @example
 * sqliteValue({ on: true }); // '{"on":true}'
 */
export function sqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array))
    return JSON.stringify(value);
  return value;
}
