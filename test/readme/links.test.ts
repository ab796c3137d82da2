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

/** A heading's anchor as a code host makes it: lower case, punctuation dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replaceAll('`', '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors of a page's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/** `[text](page.md#anchor)` and `[text](#anchor)` links, outside code blocks and spans. */
function anchorLinks(markdown: string): { page: string; anchor: string }[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links: { page: string; anchor: string }[] = [];
  for (const m of prose.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(m[1]!)) continue;
    links.push({ page: m[1]!, anchor: m[2]! });
  }
  return links;
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

  it('to a heading of a Markdown page name a heading it has', () => {
    expect(slug('Web hooks: `/hook/<name>`')).toBe('web-hooks-hookname');
    expect(slug('Behind a reverse proxy, with HTTPS')).toBe('behind-a-reverse-proxy-with-https');
    const files = markdownFiles();
    const broken: string[] = [];
    for (const file of files) {
      for (const { page, anchor } of anchorLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        const target = page === '' ? join(ROOT, file) : join(ROOT, dirname(file), page);
        if (!target.endsWith('.md') || !existsSync(target)) continue;
        if (!anchors(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor)))
          broken.push(`${file}: ${page}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
