import { z } from 'zod';

/**
 * A token's lifetime in days (null or absent: no expiry), for `POST /auth`, `POST /tokens` and
 * `pipit token create`.
 *
 * @example
 * ExpiryDays.parse(30); // 30
 */
export const ExpiryDays = z
  .number({ error: 'must be a number of days' })
  .positive()
  .max(3650)
  .nullable()
  .optional();
