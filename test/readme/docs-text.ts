// The user documentation as the tests read it: README.md, then every page under docs/ (sorted by
// path, so the order is the same on every machine). Tests that check that something is documented,
// or that run documented commands, read it all rather than README.md alone.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** README.md and the Markdown pages under docs/ (not the site's build output), as paths from the root. */
export function docsFiles(): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, 'docs'));
  return ['README.md', ...pages.sort()];
}

/**
 * The text of README.md and every docs page, in the order of `docsFiles()`.
 *
 * @example
 * expect(docsText()).toContain('max_connections_per_address');
 */
export function docsText(): string {
  return docsFiles()
    .map((file) => readFileSync(join(ROOT, file), 'utf8'))
    .join('\n');
}
