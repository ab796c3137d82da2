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
  /** Pages already requested (see {@link prefetchPages}), used when they are the ones needed. */
  prefetched?: Map<string, Promise<Page<T>>>;
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
  const pages = await mapBounded(starts, opts.concurrency, (at) => {
    const size = Math.min(opts.pageSize, end - at);
    return opts.prefetched?.get(`${at}:${size}`) ?? opts.fetchPage(at, size);
  });
  const items = [...firstItems, ...pages.flatMap((p) => p.items ?? [])];
  return { items: items.slice(0, Math.max(0, end - opts.offset)), total };
}

/**
 * Requests the first `count` pages of `[from, end)` at once, before the page that tells the total
 * is in, for a read whose total is known from before (see playlist-totals.ts); the first page's
 * round trip then carries these too. Pass the result to {@link readPages} as `prefetched`: pages it
 * does not need (the total shrank) are dropped, and their failures with them.
 *
 * @example
 * const prefetched = prefetchPages({ fetchPage, from: 100, end: 5000, pageSize: 50, count: 15 });
 */
export function prefetchPages<T>(opts: {
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>;
  from: number;
  end: number;
  pageSize: number;
  count: number;
}): Map<string, Promise<Page<T>>> {
  const pages = new Map<string, Promise<Page<T>>>();
  for (let at = opts.from; at < opts.end && pages.size < opts.count; at += opts.pageSize) {
    const size = Math.min(opts.pageSize, opts.end - at);
    const page = opts.fetchPage(at, size);
    // Handled here, so that a page that turns out not to be needed fails quietly.
    page.catch(() => undefined);
    pages.set(`${at}:${size}`, page);
  }
  return pages;
}
