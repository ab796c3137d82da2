/** Edit distance, bounded: stops counting past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * ` (did you mean "x"?)` for the closest known name, or '' when none is close.
 *
 * @example
 * didYouMean('light.kitchn', ['light.kitchen']); // ' (did you mean "light.kitchen"?)'
 */
export function didYouMean(name: string, known: Iterable<string>): string {
  const max = Math.max(2, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of known) {
    const d = distance(name, candidate, max);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best ? ` (did you mean "${best}"?)` : '';
}
