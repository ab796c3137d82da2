// Runtime text that sends a user to a section of README.md (the one Markdown file the npm package
// ships) names a section the README has: the long documentation lives under docs/, so the README
// keeps short "Configuration" and "The Spotify plugin" sections for these pointers.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The section names quoted after `README.md` in `text`: `README.md, "X"` or `README.md ("X")`. */
function readmeSectionPointers(text: string): string[] {
  return [...text.matchAll(/README\.md,? \(?\\?"([^"\\]+)\\?"/g)].map((m) => m[1]!);
}

function readmeHeadings(): Set<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return new Set([...readme.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.trim()));
}

describe('pointers to README sections', () => {
  it('finds the pointer forms used in messages', () => {
    expect(
      readmeSectionPointers(
        `Reference: README.md ("Configuration"). (set-up: README.md, "The Spotify plugin")`,
      ),
    ).toEqual(['Configuration', 'The Spotify plugin']);
  });

  it('every section named in src/ and web/src/ is a heading of README.md', () => {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'web/src'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f));
    const headings = readmeHeadings();
    const named: string[] = [];
    const missing: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(ROOT, file), 'utf8');
      } catch {
        continue; // listed by git but deleted in the working tree
      }
      for (const section of readmeSectionPointers(text)) {
        named.push(section);
        if (!headings.has(section)) missing.push(`${file}: "${section}"`);
      }
    }
    expect(named.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
