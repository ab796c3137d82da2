import { useEffect, useState } from 'preact/hooks';

const CHANGE = 'pipit:navigate';

/**
 * Goes to a client-side route (the server answers page routes with index.html on reload). The
 * path may carry a query (`/runs?outcome=failed`): a link to a filtered view is a route too.
 */
export function navigate(path: string): void {
  if (location.pathname + location.search === path) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

/**
 * Replaces the query of the current address without a new history entry: a filter typed letter by
 * letter must not fill the back button with one step per letter.
 *
 * @example
 * replaceQuery('?outcome=failed');
 */
export function replaceQuery(search: string): void {
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  if (location.search === query) return;
  history.replaceState(null, '', location.pathname + query + location.hash);
  window.dispatchEvent(new Event(CHANGE));
}

function useLocationPart(read: () => string): string {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const update = () => setValue(read());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, [read]);
  return value;
}

const readPath = () => location.pathname;
const readSearch = () => location.search;

/** The current path, updated on navigation and on the browser's back/forward buttons. */
export function usePath(): string {
  return useLocationPart(readPath);
}

/** The current query (`?outcome=failed`, or ''), updated like {@link usePath}. */
export function useSearch(): string {
  return useLocationPart(readSearch);
}
