/** A parsed search query: free-text words plus field filters (`artist:`, `year:`, ...). */
export interface SearchQuery {
  words: string[];
  artist?: string;
  album?: string;
  track?: string;
  isrc?: string;
  upc?: string;
  genre?: string;
  tag?: string;
  /** Inclusive year range; `year:1955` = [1955, 1955]. */
  year?: [number, number];
  /** A `year:` value that is not a year or range: nothing matches. */
  badYear?: boolean;
}

const FIELDS = new Set(['artist', 'album', 'track', 'isrc', 'upc', 'genre', 'tag', 'year']);

const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1');

/**
 * Parse `q`: a field value runs until the next `field:` token; quotes group words.
 * @example
 * parseSearchQuery('remaster track:Doxy artist:Miles Dover');
 */
export function parseSearchQuery(q: string): SearchQuery {
  const query: SearchQuery = { words: [] };
  const values = new Map<string, string[]>();
  let field: string | null = null;
  for (const token of q.match(/[A-Za-z]+:"[^"]*"|"[^"]*"|\S+/g) ?? []) {
    const match = /^([A-Za-z]+):(.*)$/.exec(token);
    const name = match?.[1]?.toLowerCase();
    if (match && name && FIELDS.has(name)) {
      field = name;
      values.set(field, [unquote(match[2] ?? '')].filter(Boolean));
    } else if (field !== null) {
      values.get(field)!.push(unquote(token));
    } else {
      query.words.push(unquote(token).toLowerCase());
    }
  }
  for (const [name, parts] of values) {
    const value = parts.join(' ').toLowerCase();
    if (name === 'year') {
      const m = /^(\d{4})(?:-(\d{4}))?$/.exec(value);
      if (m) query.year = [Number(m[1]), Number(m[2] ?? m[1])];
      else query.badYear = true;
    } else {
      (query as unknown as Record<string, string>)[name] = value;
    }
  }
  return query;
}

/**
 * Case-insensitive containment; an undefined needle matches everything.
 * @example
 * contains('Miles Dover', 'dover'); // true
 */
export function contains(haystack: string, needle: string | undefined): boolean {
  return needle === undefined || haystack.toLowerCase().includes(needle);
}

/**
 * Every free-text word occurs in one of the texts.
 * @example
 * wordsMatch(['doxy'], ['Doxy', 'Miles Dover']); // true
 */
export function wordsMatch(words: string[], texts: string[]): boolean {
  const joined = texts.join(' ').toLowerCase();
  return words.every((w) => joined.includes(w));
}

/**
 * Whether a `YYYY-MM-DD` release date is inside the query's year range.
 * @example
 * yearMatches({ words: [], year: [1950, 1960] }, '1955-06-01'); // true
 */
export function yearMatches(query: SearchQuery, releaseDate: string): boolean {
  if (query.badYear) return false;
  if (!query.year) return true;
  const year = Number(releaseDate.slice(0, 4));
  return year >= query.year[0] && year <= query.year[1];
}
