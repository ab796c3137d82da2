import { PipitError } from '../core/errors.ts';

/**
 * Turns `key=value` words into arguments: `key=value` is a string (the action's schema converts
 * "50" where it expects a number), `key:=json` is a typed JSON value, and `--args` JSON is merged
 * first so that words override it.
 *
 * @example
 * parseCliArgs(['text=hi', 'n:=2'], '{"a": true}'); // { a: true, text: 'hi', n: 2 }
 */
export function parseCliArgs(words: string[], json: string | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new PipitError('BAD_REQUEST', `--args is not valid JSON: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new PipitError(
        'BAD_REQUEST',
        '--args must be a JSON object such as \'{"text": "hi"}\'',
      );
    }
    Object.assign(args, parsed);
  }
  for (const word of words) {
    const typed = /^([^=:]+):=(.*)$/s.exec(word);
    if (typed) {
      try {
        args[typed[1]!] = JSON.parse(typed[2]!);
      } catch {
        throw new PipitError(
          'BAD_REQUEST',
          `"${word}": the value after ":=" must be JSON (e.g. n:=2, on:=true, list:='[1,2]')`,
        );
      }
      continue;
    }
    const plain = /^([^=]+)=(.*)$/s.exec(word);
    if (!plain)
      throw new PipitError(
        'BAD_REQUEST',
        `"${word}" is not an argument: write key=value (or key:=json)`,
      );
    args[plain[1]!] = plain[2];
  }
  return args;
}
