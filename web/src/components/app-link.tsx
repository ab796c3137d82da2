import type { ComponentChildren } from 'preact';
import { navigate } from '../lib/router.ts';

interface AppLinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  title?: string;
  'aria-label'?: string;
}

/**
 * A link to a page of the app: a plain click navigates in place, while Ctrl/⌘/Shift-click and the
 * middle button keep the browser's own behaviour (a new tab opens the same address).
 *
 * @example
 * <AppLink href="/runs?outcome=failed">Failed runs</AppLink>
 */
export function AppLink({ href, children, ...rest }: AppLinkProps) {
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
        e.preventDefault();
        // A link inside a clickable row must not also trigger the row.
        e.stopPropagation();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
