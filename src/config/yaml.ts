import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { ScalarTag } from 'yaml';
import { PipitError } from '../core/errors.ts';

function envTag(env: NodeJS.ProcessEnv, problems: string[], unset?: string): ScalarTag {
  return {
    tag: '!env',
    resolve(text: string) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(text.trim());
      if (!match) {
        problems.push(
          `"!env ${text}" is not a variable name: write "!env NAME" or "!env NAME:-default"`,
        );
        return '';
      }
      const [, name, fallback] = match;
      const value = env[name!];
      if (value !== undefined) return value;
      if (fallback !== undefined) return fallback;
      if (unset !== undefined) return unset;
      problems.push(`environment variable ${name} is not set (used as "!env ${name}")`);
      return '';
    },
  };
}

/**
 * Reads one YAML file into a plain object. `!env NAME` (or `!env NAME:-default`) takes a value
 * from the environment so secrets need not sit in the file; an unset variable is an error, or
 * `unset` when given (the CLI finding its service's control socket needs no secret).
 *
 * @example
 * readYamlFile('/etc/pipit/config.yaml', process.env); // { 'backend.http': { port: 8008 } }
 */
export function readYamlFile(
  path: string,
  env: NodeJS.ProcessEnv,
  unset?: string,
  /** The file's text, when it is not (yet) on disk: a change checked before it is written. */
  content?: string,
): Record<string, unknown> {
  let text: string;
  try {
    text = content ?? readFileSync(path, 'utf8');
  } catch (err) {
    throw new PipitError(
      'CONFIG_INVALID',
      `${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      {
        cause: err,
      },
    );
  }
  const problems: string[] = [];
  const doc = parseDocument(text, {
    customTags: [envTag(env, problems, unset)],
    uniqueKeys: true,
    prettyErrors: true,
  });
  if (doc.errors.length) {
    const first = doc.errors[0]!;
    // "line L, column C", the line itself and a caret under the column; at the end of the file,
    // the last line with text, where the unfinished construct is.
    const [pos] = first.linePos ?? [];
    const reason = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const lines = text.split('\n');
    let where = '';
    if (pos) {
      let line = pos.line;
      let col = pos.col;
      while (line > 1 && !(lines[line - 1] ?? '').trim())
        col = (lines[--line - 1] ?? '').length + 1;
      const ending = line === pos.line ? '' : ' (the file ends without closing it)';
      where = ` at line ${line}, column ${col}${ending}:\n  ${lines[line - 1] ?? ''}\n  ${' '.repeat(Math.max(0, col - 1))}^`;
    }
    throw new PipitError('CONFIG_INVALID', `${path}: not valid YAML: ${reason}${where}`, {
      cause: first,
    });
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (problems.length) throw new PipitError('CONFIG_INVALID', `${path}: ${problems.join('; ')}`);
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new PipitError(
      'CONFIG_INVALID',
      `${path}: the top level must be a mapping of keys (like "backend.http:"), got ${Array.isArray(value) ? 'a list' : typeof value}`,
    );
  }
  return value as Record<string, unknown>;
}
