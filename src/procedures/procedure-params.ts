import { parse as parseYaml } from 'yaml';
import { PipitError } from '../core/errors.ts';

/**
 * A procedure key's parameter list split at its commas, but not at those inside quotes or
 * brackets: a default may be "a,b" or [1, 2].
 *
 * @example
 * splitParams('w="a,b", v=[1, 2], z'); // ['w="a,b"', ' v=[1, 2]', ' z']
 */
export function splitParams(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/**
 * A parameter's default value (`name=value` in a procedure key): a YAML value, or CONFIG_INVALID
 * naming the procedure key, the parameter and the fix.
 *
 * @example
 * parseDefault('procedure.m(volume=50)', 'volume', '50'); // 50
 */
export function parseDefault(key: string, param: string, text: string): unknown {
  try {
    return parseYaml(text || 'null') as unknown;
  } catch (err) {
    throw new PipitError(
      'CONFIG_INVALID',
      `${key}: parameter "${param}": its default ${text} is not a YAML value (${(err as Error).message.split('\n')[0]}): quote text ("a, b"), write lists as [1, 2]`,
      { cause: err },
    );
  }
}
