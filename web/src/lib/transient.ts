import { useCallback, useEffect, useState } from 'preact/hooks';

/** How long a confirmation ("Copied", "Token revoked") stays before it goes by itself. */
export const TRANSIENT_MS = 4000;

/**
 * A status message that clears itself after `ms` (and whenever `show` replaces it), so that a
 * confirmation does not linger into an unrelated moment.
 *
 * @example
 * const [status, show, clear] = useTransient();
 * show('Token revoked.'); // gone 4 s later
 */
export function useTransient(ms = TRANSIENT_MS): [string, (message: string) => void, () => void] {
  const [message, setMessage] = useState('');
  const [shownAt, setShownAt] = useState(0);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(''), ms);
    return () => clearTimeout(timer);
  }, [message, shownAt, ms]);
  const show = useCallback((text: string) => {
    setMessage(text);
    setShownAt((n) => n + 1);
  }, []);
  const clear = useCallback(() => setMessage(''), []);
  return [message, show, clear];
}
