import { ApiError } from './http.ts';
import type { EmuRequest } from './http.ts';

/** Limits of one list endpoint. */
export interface PageRule {
  defaultLimit: number;
  maxLimit: number;
  /** Largest accepted offset (e.g. 100,000 for `/me/playlists`, 1,000 for search). */
  maxOffset?: number;
}

/** The standard rule: limit 1..50 (default 20). */
export const STANDARD_PAGE: PageRule = { defaultLimit: 20, maxLimit: 50 };

/**
 * Read `limit`/`offset` with the API's 400 messages.
 * @example
 * const { limit, offset } = pageParams(req.query, STANDARD_PAGE);
 */
export function pageParams(
  query: URLSearchParams,
  rule: PageRule,
): { limit: number; offset: number } {
  const rawLimit = query.get('limit');
  const rawOffset = query.get('offset');
  let limit = rule.defaultLimit;
  if (rawLimit !== null && rawLimit !== '') {
    if (!/^\d+$/.test(rawLimit)) throw new ApiError(400, 'Invalid limit');
    limit = Number(rawLimit);
    if (limit < 1 || limit > rule.maxLimit) throw new ApiError(400, 'Invalid limit');
  }
  let offset = 0;
  if (rawOffset !== null && rawOffset !== '') {
    if (!/^\d+$/.test(rawOffset)) throw new ApiError(400, 'Invalid offset');
    offset = Number(rawOffset);
    if (rule.maxOffset !== undefined && offset > rule.maxOffset)
      throw new ApiError(400, 'Invalid offset');
  }
  return { limit, offset };
}

/**
 * An absolute URL for this endpoint with `offset`/`limit` set and the other query parameters kept,
 * so clients can follow `next` verbatim.
 * @example
 * pageUrl(req, 40, 20);
 */
export function pageUrl(
  req: EmuRequest,
  offset: number,
  limit: number,
  extra?: URLSearchParams,
): string {
  const params = new URLSearchParams();
  params.set('offset', String(offset));
  params.set('limit', String(limit));
  for (const [k, v] of extra ?? req.query) if (k !== 'offset' && k !== 'limit') params.append(k, v);
  return `${req.origin}${req.path}?${params.toString()}`;
}

/**
 * An offset paging object over an already-filtered list.
 * @example
 * return ok(pageOf(req, items, limit, offset, render));
 */
export function pageOf<T>(
  req: EmuRequest,
  all: readonly T[],
  limit: number,
  offset: number,
  render: (item: T) => unknown,
  path?: string,
): Record<string, unknown> {
  const target = path === undefined ? req : { ...req, path };
  const total = all.length;
  return {
    href: pageUrl(target, offset, limit),
    items: all.slice(offset, offset + limit).map(render),
    limit,
    next: offset + limit < total ? pageUrl(target, offset + limit, limit) : null,
    offset,
    previous: offset > 0 ? pageUrl(target, Math.max(0, offset - limit), limit) : null,
    total,
  };
}
