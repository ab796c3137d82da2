import { useEffect, useState } from 'preact/hooks';

const CHANGE = 'pipit:navigate';

/** Goes to a client-side route (the server answers page routes with index.html on reload). */
export function navigate(path: string): void {
  if (location.pathname === path) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

/** The current path, updated on navigation and on the browser's back/forward buttons. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return path;
}
