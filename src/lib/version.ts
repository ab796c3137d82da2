import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * Pipit's version, from its package.json (two levels up from both src/lib/ and dist/lib/), read
 * once; "unknown" when it cannot be read.
 *
 * @example
 * pipitVersion(); // '0.1.0'
 */
export function pipitVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const { version } = JSON.parse(text) as { version?: unknown };
    cached = typeof version === 'string' ? version : 'unknown';
  } catch {
    cached = 'unknown';
  }
  return cached;
}
