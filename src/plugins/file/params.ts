import { z } from 'zod';
import { actionsFor } from '../../core/action.ts';
import { PipitError } from '../../core/errors.ts';
import type { FileState } from './state.ts';

/** `defineAction` for the file plugin's actions. */
export const fileAction = actionsFor<FileState>();

/** A path parameter. */
export const PathParam = (what: string) =>
  z
    .string()
    .min(1)
    .max(4096)
    .describe(`${what}: absolute, ~/..., or relative to the first of file.roots`);

/**
 * A permission mode: a number, or an octal string such as "0644" (safer: YAML and JSON have no
 * octal). setuid and setgid (04000, 02000) are refused: a caller of the file plugin could otherwise
 * leave a program that runs as the service's user (or group) for anyone who can start it. The
 * sticky bit (01000) is allowed: on a directory it only restricts who may delete in it.
 */
export const ModeParam = (what: string) =>
  z
    .union([z.number().int().min(0).max(0o7777), z.string().regex(/^(0o?)?[0-7]{3,4}$/)])
    .refine((mode) => (parseMode(mode) & 0o6000) === 0, {
      message:
        'sets setuid or setgid (04000, 02000), which the file plugin refuses: use permission bits only, e.g. "0755" (the sticky bit 01000 is allowed)',
    })
    .describe(what);

/**
 * A mode parameter's value as a number: strings are octal ("644", "0644", "0o644"), numbers as they are.
 *
 * @example
 * parseMode('0755'); // 493
 */
export function parseMode(mode: number | string): number {
  if (typeof mode === 'number') return mode;
  const digits = mode.replace(/^0o?/, '');
  const value = Number.parseInt(digits === '' ? '0' : digits, 8);
  if (!Number.isInteger(value) || value > 0o7777)
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `"mode" ${JSON.stringify(mode)} is not an octal mode such as "0644"`,
    );
  return value;
}

/** Content encodings: text (UTF-8) or binary as base64. */
export const EncodingParam = z
  .enum(['utf-8', 'utf8', 'base64'])
  .default('utf-8')
  .describe('"utf-8" for text, "base64" for binary content');

/**
 * A mode as `ls` and `chmod` show it.
 *
 * @example
 * octal(0o644); // '0644'
 */
export function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;
}
