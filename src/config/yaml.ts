import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { ScalarTag } from 'yaml';
import { PipitError } from '../core/errors.ts';

function envTag(env: NodeJS.ProcessEnv, problems: string[]): ScalarTag {
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
      problems.push(`environment variable ${name} is not set (used as "!env ${name}")`);
      return '';
    },
  };
}

/**
 * Reads one YAML file into a plain object. `!env NAME` (or `!env NAME:-default`) takes a value
 * from the environment so secrets need not sit in the file; an unset variable is an error.
 *
 * @example
 * readYamlFile('/etc/pipit/config.yaml', process.env); // { 'backend.http': { port: 8008 } }
 */
export function readYamlFile(path: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
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
    customTags: [envTag(env, problems)],
    uniqueKeys: true,
    prettyErrors: true,
  });
  if (doc.errors.length) {
    const first = doc.errors[0]!;
    throw new PipitError(
      'CONFIG_INVALID',
      `${path}: not valid YAML: ${first.message.split('\n')[0]}`,
      {
        cause: first,
      },
    );
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
