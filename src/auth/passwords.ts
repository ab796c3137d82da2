import type * as Argon2 from '@node-rs/argon2';
import { PipitError } from '../core/errors.ts';

// The native argon2 addon loads with the first password hashed or checked: a one-off command, or
// a service whose callers use tokens, never needs it.
let argon2: Promise<typeof Argon2> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** Shortest and longest passwords accepted. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

// OWASP's argon2id baseline (19 MiB, 2 passes); @node-rs/argon2 defaults to argon2id.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Refuses passwords outside the allowed length, with a message that says the rule.
 *
 * @example
 * checkPasswordPolicy('correct horse'); // ok
 */
export function checkPasswordPolicy(password: unknown): asserts password is string {
  if (
    typeof password !== 'string' ||
    password.length < PASSWORD_MIN ||
    password.length > PASSWORD_MAX
  ) {
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `the password must be a string of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
    );
  }
}

/**
 * Hashes a password with argon2id (PHC string, salt included).
 *
 * @example
 * const stored = await hashPassword('correct horse'); // '$argon2id$v=19$m=19456,t=2,p=1$...'
 */
export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon2()).hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no hash (unknown user) it still spends the same
 * time on a dummy hash, so response times do not reveal which user names exist.
 *
 * @example
 * await verifyPassword(user?.password_hash, 'guess'); // false
 */
export async function verifyPassword(
  stored: string | undefined,
  password: string,
): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return false;
  const { verify } = await loadArgon2();
  if (!stored) {
    dummyHash ??= hashPassword('pipit-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
