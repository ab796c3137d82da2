import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A seeded pseudo-random generator (mulberry32): the seed must yield the same catalog every run. */
export class Prng {
  #state: number;

  /**
   * @example
   * const rng = new Prng(42);
   * rng.int(10); // same value on every run
   */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** An integer in [min, max]. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** A base62 string, e.g. a 22-character Spotify ID. */
  base62(length = 22): string {
    let out = '';
    for (let i = 0; i < length; i++) out += BASE62[this.int(62)];
    return out;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/**
 * An unpredictable base62 string for tokens, codes and secrets (these must not be guessable from
 * the catalog seed).
 * @example
 * const token = secureToken(64);
 */
export function secureToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}

/**
 * Whether a string is a 22-character base62 Spotify ID.
 * @example
 * isBase62Id('4iV5W9uYEdYUVa79Axb7Rh'); // true
 */
export function isBase62Id(id: string): boolean {
  return /^[0-9A-Za-z]{22}$/.test(id);
}
