import { mapBounded } from './timers.ts';

/** One page as the Web API returns it (offset paging). */
export interface Page<T> {
  items?: T[];
  total?: number;
}

/**
 * Reads `limit` items from `offset` (all of them when `limit` is undefined): the first page
 * tells the total, then the remaining pages are fetched `concurrency` at a time, in order.
 * `first` reuses a page already in hand (e.g. the items embedded in a playlist).
 *
 * @example
 * const items = await readPages({
 *   fetchPage: (offset, limit) => client.request({ path: '/me/tracks', query: { offset, limit } }),
 *   offset: 0, limit: 120, pageSize: 50, concurrency: 8,
 * });
 */
export async function readPages<T>(opts: {
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>;
  offset: number;
  limit: number | undefined;
  pageSize: number;
  concurrency: number;
  /** Highest `offset + limit` the endpoint accepts (search: 1000). */
  cap?: number;
  first?: { offset: number; page: Page<T> };
}): Promise<{ items: T[]; total: number }> {
  const want = opts.limit ?? Number.POSITIVE_INFINITY;
  let firstOffset: number;
  let first: Page<T>;
  if (opts.first && opts.first.offset <= opts.offset) {
    firstOffset = opts.first.offset;
    first = opts.first.page;
  } else {
    firstOffset = opts.offset;
    first = await opts.fetchPage(opts.offset, Math.min(opts.pageSize, want));
  }
  const firstItems = (first.items ?? []).slice(opts.offset - firstOffset);
  const total = first.total ?? firstItems.length;
  const end = Math.min(opts.offset + want, total, opts.cap ?? Number.POSITIVE_INFINITY);
  const starts: number[] = [];
  for (let at = Math.max(opts.offset, firstOffset + (first.items?.length ?? 0)); at < end;) {
    starts.push(at);
    at += opts.pageSize;
  }
  const pages = await mapBounded(starts, opts.concurrency, (at) =>
    opts.fetchPage(at, Math.min(opts.pageSize, end - at)),
  );
  const items = [...firstItems, ...pages.flatMap((p) => p.items ?? [])];
  return { items: items.slice(0, Math.max(0, end - opts.offset)), total };
}
