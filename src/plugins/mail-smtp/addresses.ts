import addressparser from 'nodemailer/lib/addressparser';
import { PipitError } from '../api/index.ts';

/** One mailbox: an address, and the name shown with it (maybe empty). */
export interface Mailbox {
  name: string;
  address: string;
}

// A plain local part (no quoted strings) and a domain of letters, digits and hyphens with at
// least one dot (or "localhost"): what mail servers take, and what catches most typos.
const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]+@(?:localhost|(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,})$/u;

/** True for an address a mail server takes (`ada@example.com`). */
export function isAddress(text: string): boolean {
  return ADDRESS.test(text);
}

/**
 * The mailboxes of an argument: one string (comma-separated, "Name <address>" allowed) or a list
 * of them. Refuses, naming the argument and the value, anything that is not an address.
 *
 * @example
 * mailboxes('to', 'Ada <ada@example.com>, bob@example.com');
 * // [{ name: 'Ada', address: 'ada@example.com' }, { name: '', address: 'bob@example.com' }]
 */
export function mailboxes(field: string, value: string | readonly string[] | undefined): Mailbox[] {
  const items = value === undefined ? [] : typeof value === 'string' ? [value] : value;
  const out: Mailbox[] = [];
  for (const item of items) {
    if (/[\r\n]/.test(item))
      throw new PipitError('INVALID_ARGUMENTS', `mail.smtp.send: "${field}" has a line break`);
    for (const parsed of addressparser(item, { flatten: true })) {
      const address = parsed.address ?? '';
      if (!isAddress(address))
        throw new PipitError(
          'INVALID_ARGUMENTS',
          `mail.smtp.send: "${field}" has ${JSON.stringify(address || parsed.name)}, which is not an e-mail address (like ada@example.com)`,
        );
      out.push({ name: parsed.name, address });
    }
  }
  return out;
}

/** A mailbox as a header shows it: `"Name" <address>`, or the bare address. */
export function format(m: Mailbox): string {
  return m.name ? `"${m.name.replace(/["\\]/g, '\\$&')}" <${m.address}>` : m.address;
}
