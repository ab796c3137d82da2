// Every relative link in the README and the Markdown under docs/ and src/ names a file that exists,
// as a code host shows it (relative to the page's own folder).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && !f.startsWith('node_modules/') && existsSync(join(ROOT, f)));
}

/** The relative targets of `[text](target)` links and images, outside code blocks and spans. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links: string[] = [];
  for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(target)) continue;
    links.push(target.split('#')[0]!);
  }
  return links.filter(Boolean);
}

describe('Markdown links', () => {
  it('point at files that exist', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const target of relativeLinks(text))
        if (!existsSync(join(ROOT, dirname(file), decodeURIComponent(target))))
          broken.push(`${file}: ${target}`);
    }
    expect(broken).toEqual([]);
  });
});
