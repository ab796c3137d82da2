import { PipitError } from '../core/errors.ts';

/**
 * A cron expression as Pipit's scheduler (croner) reads it. Five fields are standard
 * (`min hour day month weekday`). Six fields follow Platypush (croniter): the seconds are the
 * **last** field (`min hour day month weekday sec`), where croner puts them first, so the last field
 * moves to the front. Nicknames (`@daily`) pass through. Seven fields are refused.
 *
 * @example
 * toCronerPattern('30 7 * * * 5'); // '5 30 7 * * *' — 07:30:05 every day
 * toCronerPattern('0 23 * * *');   // '0 23 * * *'
 */
export function toCronerPattern(expression: string): string {
  const text = expression.trim();
  if (text.startsWith('@')) return text;
  const fields = text.split(/\s+/);
  if (fields.length === 5) return fields.join(' ');
  if (fields.length === 6) return [fields[5], ...fields.slice(0, 5)].join(' ');
  throw new PipitError(
    'CONFIG_INVALID',
    `cron expression "${expression}" has ${fields.length} fields: use 5 ("min hour day month weekday") or 6 with the seconds last ("min hour day month weekday sec")`,
  );
}
