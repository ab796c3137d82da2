/** A candidate that matched a query, with the character positions that matched (for highlighting). */
export interface FuzzyMatch<T> {
  item: T;
  text: string;
  score: number;
  positions: number[];
}

const SEPARATORS = new Set(['.', '_', '-', ' ', '/', ':']);

// Scores: a character at the start of a name segment ("spot" in "music.spotify") counts far more
// than one in the middle of a word, and runs of consecutive characters beat scattered ones, so
// "spot pl" prefers music.spotify.play over music.spotify.get_playlists.
const CHAR = 1;
const SEGMENT_START = 8;
const CONSECUTIVE = 8;
const GAP = 3;

function isSegmentStart(text: string, i: number): boolean {
  return i === 0 || SEPARATORS.has(text[i - 1]!);
}

/**
 * Best subsequence alignment of one query token in `text` (both lower case), or null when the
 * token's characters do not all appear in order. Dynamic programming over (token char, position)
 * with a running maximum, so it is O(token × text).
 */
function matchToken(token: string, text: string): { score: number; positions: number[] } | null {
  const n = text.length;
  const m = token.length;
  if (m === 0) return { score: 0, positions: [] };
  if (m > n) return null;
  const NONE = -Infinity;
  const score: number[][] = [];
  const from: number[][] = [];
  for (let j = 0; j < m; j++) {
    score.push(new Array<number>(n).fill(NONE));
    from.push(new Array<number>(n).fill(-1));
    // Best score of the previous row strictly before i - 1 (a gap), and where it was.
    let bestBefore = NONE;
    let bestBeforeAt = -1;
    for (let i = 0; i < n; i++) {
      if (j > 0 && i >= 2 && score[j - 1]![i - 2]! > bestBefore) {
        bestBefore = score[j - 1]![i - 2]!;
        bestBeforeAt = i - 2;
      }
      if (text[i] !== token[j]) continue;
      const own = CHAR + (isSegmentStart(text, i) ? SEGMENT_START : 0);
      if (j === 0) {
        score[j]![i] = own - (isSegmentStart(text, i) ? 0 : GAP);
        continue;
      }
      const chained = i >= 1 ? score[j - 1]![i - 1]! + CONSECUTIVE : NONE;
      const gapped = bestBefore - GAP;
      if (chained === NONE && gapped === NONE) continue;
      if (chained >= gapped) {
        score[j]![i] = own + chained;
        from[j]![i] = i - 1;
      } else {
        score[j]![i] = own + gapped;
        from[j]![i] = bestBeforeAt;
      }
    }
  }
  let end = -1;
  let best = NONE;
  for (let i = 0; i < n; i++) {
    if (score[m - 1]![i]! > best) {
      best = score[m - 1]![i]!;
      end = i;
    }
  }
  if (end < 0) return null;
  const positions: number[] = [];
  for (let j = m - 1, i = end; j >= 0; i = from[j]![i]!, j--) positions.unshift(i);
  return { score: best, positions };
}

/**
 * Scores `text` against a query of space-separated tokens; every token must match (as an
 * in-order subsequence of characters), otherwise null. Case-insensitive.
 *
 * @example
 * fuzzyScore('spot pl', 'music.spotify.play') // → { score: …, positions: [6, 7, 8, 9, 14, 15] }
 */
export function fuzzyScore(
  query: string,
  text: string,
): { score: number; positions: number[] } | null {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  const lower = text.toLowerCase();
  if (tokens.length === 0) return { score: 0, positions: [] };
  let total = 0;
  const positions = new Set<number>();
  let lastStart = -1;
  let inOrder = true;
  for (const token of tokens) {
    const hit = matchToken(token, lower);
    if (!hit) return null;
    total += hit.score;
    if (hit.positions[0]! < lastStart) inOrder = false;
    lastStart = hit.positions[0]!;
    for (const p of hit.positions) positions.add(p);
  }
  if (inOrder) total += 2 * (tokens.length - 1);
  if (lower === query.trim().toLowerCase()) total += 100;
  return { score: total, positions: [...positions].sort((a, b) => a - b) };
}

/**
 * Filters and ranks items by a fuzzy query: best score first, then shorter text, then
 * alphabetical. An empty query keeps every item in alphabetical order.
 *
 * @example
 * fuzzyFilter('spot pl', actions, (a) => a.name)[0]?.item.name // 'music.spotify.play'
 */
export function fuzzyFilter<T>(
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  limit = 50,
): FuzzyMatch<T>[] {
  const matches: FuzzyMatch<T>[] = [];
  for (const item of items) {
    const text = textOf(item);
    const hit = fuzzyScore(query, text);
    if (hit) matches.push({ item, text, score: hit.score, positions: hit.positions });
  }
  const blank = query.trim() === '';
  matches.sort((a, b) =>
    blank
      ? a.text.localeCompare(b.text)
      : b.score - a.score || a.text.length - b.text.length || a.text.localeCompare(b.text),
  );
  return matches.slice(0, limit);
}
