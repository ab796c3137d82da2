function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/**
 * The closest names to `input` (edit distance, then prefix), for "did you mean" hints.
 *
 * @example
 * suggest('plya', ['play', 'pause', 'next']); // ['play']
 * suggest('MQTTMesageEvent', ['MQTTMessageEvent', 'TextMessageEvent']); // ['MQTTMessageEvent']
 */
export function suggest(input: string, names: Iterable<string>, max = 3): string[] {
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const score = name.startsWith(input) ? 0 : distance(input.toLowerCase(), name.toLowerCase());
    if (score <= Math.max(2, Math.floor(input.length / 3))) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  // Near ties only: beside a one-letter slip, names that need five edits are noise (the more
  // names there are, the more of them fall within the threshold).
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((s) => s.score <= best + 2)
    .slice(0, max)
    .map((s) => s.name);
}

/**
 * " Did you mean X?" or an empty string.
 *
 * @example
 * `unknown action${didYouMean('ech', ['echo'])}`; // 'unknown action. Did you mean "echo"?'
 */
export function didYouMean(input: string, names: Iterable<string>): string {
  const hits = suggest(input, names);
  return hits.length ? `. Did you mean ${hits.map((h) => `"${h}"`).join(' or ')}?` : '';
}
