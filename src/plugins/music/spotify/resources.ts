import { PipitError } from '../../../core/errors.ts';

/** Spotify resource types the plugin handles. */
export type ResourceType = 'track' | 'episode' | 'album' | 'artist' | 'playlist' | 'show';

/** A parsed resource. */
export interface Resource {
  type: ResourceType;
  id: string;
  uri: string;
}

const TYPES: readonly ResourceType[] = ['track', 'episode', 'album', 'artist', 'playlist', 'show'];
const BARE_ID = /^[0-9A-Za-z]{22}$/;
const ID = /^[0-9A-Za-z]{1,64}$/;

/** True when `text` reads as a bare Spotify ID (22 base62 characters). */
export function isBareId(text: string): boolean {
  return BARE_ID.test(text);
}

function fromUrl(text: string): { type: string; id: string } | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.hostname !== 'open.spotify.com') return undefined;
  // Links may carry a locale segment: https://open.spotify.com/intl-de/track/ID?si=...
  const parts = url.pathname.split('/').filter((p) => p && !p.startsWith('intl-'));
  if (parts.length !== 2) return undefined;
  return { type: parts[0]!, id: parts[1]! };
}

/**
 * Parses a resource given as a URI (`spotify:track:ID`), an open.spotify.com link, or (when
 * `bareIdType` is given) a bare ID; throws INVALID_ARGUMENTS naming the value and the fix.
 *
 * @example
 * parseResource('https://open.spotify.com/track/4iV5W9uYEdYUVa79Axb7Rh', { types: ['track'] });
 * // { type: 'track', id: '4iV5W9uYEdYUVa79Axb7Rh', uri: 'spotify:track:4iV5W9uYEdYUVa79Axb7Rh' }
 */
export function parseResource(
  input: string,
  opts: { types: readonly ResourceType[]; bareIdType?: ResourceType; what?: string },
): Resource {
  const text = input.trim();
  const what = opts.what ?? 'resource';
  const expected = `a URI like spotify:${opts.types[0]}:<id>, an open.spotify.com/${opts.types[0]}/<id> link${opts.bareIdType ? ' or a bare 22-character ID' : ''}`;
  let type: string | undefined;
  let id: string | undefined;
  const uri = /^spotify:([a-z]+):([^:]+)$/.exec(text);
  if (uri) [, type, id] = uri;
  else if (text.startsWith('http')) ({ type, id } = fromUrl(text) ?? {});
  else if (opts.bareIdType && isBareId(text)) [type, id] = [opts.bareIdType, text];
  if (type === undefined || id === undefined) {
    throw new PipitError('INVALID_ARGUMENTS', `${what} "${input}" is not ${expected}`);
  }
  if (!(TYPES as readonly string[]).includes(type) || !opts.types.includes(type as ResourceType)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${what} "${input}" is a ${type}, but only ${opts.types.join(' or ')} resources are accepted here`,
    );
  }
  if (!ID.test(id)) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `${what} "${input}" has a malformed ID "${id}": Spotify IDs are base62 (letters and digits)`,
    );
  }
  return { type: type as ResourceType, id, uri: `spotify:${type}:${id}` };
}

/**
 * Normalises "one string or a list of strings" into a non-empty list.
 *
 * @example
 * asList('spotify:track:x'); // ['spotify:track:x']
 */
export function asList(value: string | string[], what = 'resources'): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (list.length === 0) throw new PipitError('INVALID_ARGUMENTS', `${what} must not be empty`);
  return list;
}

/**
 * Splits a list into chunks of at most `size` items.
 *
 * @example
 * chunks([1, 2, 3], 2); // [[1, 2], [3]]
 */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
