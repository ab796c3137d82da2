// The repository and the npm package point only at what a user or contributor has: no comment or
// text refers to the planning documents Pipit was written from (they are not in the repository),
// and no string shown at run time names a Markdown file the package does not ship.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

// The documents' names, spelled in pieces so that this file does not match itself.
const PRIVATE = new RegExp(
  [`\\b${'SP'}EC\\b`, `\\b${'DES'}IGN\\b`, `\\b${'NO'}TES\\b`, `\\.\\./${'sha'}red/`].join('|'),
);

/** Tracked files under `areas`, plus new ones not ignored (so a pointer is caught before a commit). */
function repoFiles(areas: readonly string[]): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...areas],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return [...new Set(out.split('\0').filter((f) => f !== ''))].filter((f) =>
    existsSync(join(ROOT, f)),
  );
}

function readText(file: string): string | null {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.includes('\0') ? null : text;
}

/** Every `file:line: text` of `files` whose line matches `pattern`. */
function hits(files: readonly string[], pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readText(file);
    if (text === null) continue;
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

/** The text of every string literal, template piece and JSX text of a TypeScript file. */
function stringsOf(file: string, text: string): { line: number; text: string }[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const out: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      out.push({ line: line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

// Markdown files named in a string: `README.md`, `src/plugins/x/README.md`, `docs/a.md`...
const MD_NAME = /(?:[\w.-]+\/)*[\w.-]+\.md\b/g;

/** The Markdown files an installed package has: its README (npm always packs it) and `files`'. */
function shippedMarkdown(): Set<string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  const packed = repoFiles(pkg.files).filter((f) => f.endsWith('.md'));
  return new Set(['README.md', ...packed]);
}

describe('pointers in the repository', () => {
  it('no file refers to the planning documents, which the repository does not have', () => {
    const files = repoFiles(['.']);
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(relative(ROOT, import.meta.filename));
    expect(hits(files, PRIVATE)).toEqual([]);
  });

  it('the check finds a pointer when there is one', () => {
    const line = `// the default is 20 (${'SP'}EC)`;
    expect(PRIVATE.test(line)).toBe(true);
    expect(PRIVATE.test('const FORMAT_SPEC = 1; // NO_SPECIFIC_TRACK, the spec')).toBe(false);
  });

  it('strings shown at run time name only Markdown files the npm package ships', () => {
    const shipped = shippedMarkdown();
    const sources = repoFiles(['src', 'web/src']).filter(
      (f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'),
    );
    expect(sources.length).toBeGreaterThan(50);
    const bad: string[] = [];
    for (const file of sources) {
      for (const { line, text } of stringsOf(file, readText(file) ?? '')) {
        for (const name of text.match(MD_NAME) ?? []) {
          if (!shipped.has(name)) bad.push(`${file}:${line}: ${name} in ${JSON.stringify(text)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('a string naming a file under src/ is caught, a comment is not', () => {
    const text = [
      '// see src/procedures/README.md',
      "const a = 'set-up: see src/plugins/music/spotify/README.md';",
      'const b = `see README.md, "The Spotify plugin"`;',
    ].join('\n');
    const named = stringsOf('x.ts', text).flatMap(({ text: t }) => t.match(MD_NAME) ?? []);
    expect(named).toEqual(['src/plugins/music/spotify/README.md', 'README.md']);
    expect(shippedMarkdown().has('README.md')).toBe(true);
    expect(shippedMarkdown().has('src/plugins/music/spotify/README.md')).toBe(false);
  });
});
