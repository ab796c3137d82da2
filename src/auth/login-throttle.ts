import { Throttle } from './throttle.ts';

const WINDOW_MS = 15 * 60_000;
/** The per-user-name ceiling, over all addresses, as a multiple of `login_attempts`. */
const USER_CEILING_FACTOR = 10;
/** Addresses remembered per user name as having logged in (the oldest is forgotten first). */
const KNOWN_CLIENTS_MAX = 64;

/**
 * The throttling of password logins, built so that an attacker cannot lock the owner out:
 * failures count per (user name, client address) (`login_attempts` in 15 minutes) and per client
 * address (3x that), so the attacker's address is stopped while the owner's still logs in. A
 * slower ceiling per user name over all addresses (10x) stops a spread-out guessing attack; the
 * addresses that have logged in as that user before are exempt from it.
 *
 * @example
 * const logins = new LoginThrottle(10);
 * if (logins.wait('ada', '10.0.0.5') > 0) refuse();
 * ok ? logins.succeeded('ada', '10.0.0.5') : logins.failed('ada', '10.0.0.5');
 */
export class LoginThrottle {
  readonly #pair: Throttle;
  readonly #client: Throttle;
  readonly #userCeiling: Throttle;
  // Addresses that have logged in as a user: the per-user ceiling does not lock them out.
  readonly #knownClients = new Map<string, Set<string>>();

  constructor(loginAttempts: number) {
    this.#pair = new Throttle(loginAttempts, WINDOW_MS);
    this.#client = new Throttle(loginAttempts * 3, WINDOW_MS);
    this.#userCeiling = new Throttle(loginAttempts * USER_CEILING_FACTOR, WINDOW_MS);
  }

  /** Seconds `client` must wait before trying user name `name` (lower case); 0: it may try now. */
  wait(name: string, client: string): number {
    const known = this.#knownClients.get(name)?.has(client) ?? false;
    return Math.max(
      this.#pair.retryAfter(`${name}\n${client}`),
      this.#client.retryAfter(client),
      known ? 0 : this.#userCeiling.retryAfter(name),
    );
  }

  failed(name: string, client: string): void {
    this.#pair.fail(`${name}\n${client}`);
    this.#client.fail(client);
    this.#userCeiling.fail(name);
  }

  succeeded(name: string, client: string): void {
    this.#pair.reset(`${name}\n${client}`);
    let clients = this.#knownClients.get(name);
    if (!clients) this.#knownClients.set(name, (clients = new Set()));
    if (clients.size >= KNOWN_CLIENTS_MAX) clients.delete(clients.values().next().value!);
    clients.add(client);
  }
}
