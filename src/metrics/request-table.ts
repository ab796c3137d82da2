/**
 * One label set's observations: plain numbers, so that recording one costs a few additions.
 *
 * @example
 * const cell: RequestCell = table.cell(key, () => labels);
 * cell.count; // observations so far
 */
export interface RequestCell {
  readonly labels: Readonly<Record<string, string>>;
  count: number;
  /** Sum of the observed values. */
  sum: number;
  /** Observations per bucket (not cumulative): `buckets[i]` counts values in (bound[i-1], bound[i]]. */
  readonly buckets: Float64Array;
}

/**
 * Counts and a histogram of values per label set, kept as plain numbers and read only at scrape
 * time (see tableHistogram, tableCounter): recording is a Map lookup and a few additions, where
 * prom-client's own `inc()` and `observe()` validate and hash the labels on every call (about
 * 1 µs per request together, a few percent of `POST /execute`).
 *
 * @example
 * const table = new RequestTable([0.01, 0.1, 1]);
 * const cell = table.cell('http\0utils.echo\0ok', () => ({ transport: 'http', action: 'utils.echo', outcome: 'ok' }));
 * table.observe(cell, 0.004);
 */
export class RequestTable {
  readonly bounds: readonly number[];
  readonly #cells = new Map<string, RequestCell>();

  constructor(bounds: readonly number[]) {
    this.bounds = [...bounds].sort((a, b) => a - b);
  }

  /** The cell for `key`, made with `labels()` the first time. Keys must be bounded by the caller. */
  cell(key: string, labels: () => Record<string, string>): RequestCell {
    let cell = this.#cells.get(key);
    if (!cell) {
      cell = { labels: labels(), count: 0, sum: 0, buckets: new Float64Array(this.bounds.length) };
      this.#cells.set(key, cell);
    }
    return cell;
  }

  /** Records one value (values above the last bound count in `+Inf` only). */
  observe(cell: RequestCell, value: number): void {
    cell.count++;
    cell.sum += value;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        cell.buckets[i]!++;
        return;
      }
    }
  }

  /** Every cell, in the order they were first seen. */
  cells(): IterableIterator<RequestCell> {
    return this.#cells.values();
  }
}
