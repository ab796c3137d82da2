import { Throttle } from './throttle.ts';

const WINDOW_MS = 15 * 60_000;
/** The per-user-name ceiling, over all addresses, as a multiple of `login_attempts`. */
const USER_CEILING_FACTOR = 10;
/**
 * Failures per (user name, address) in the window once the name is over its ceiling, for addresses
 * that have not logged in as that user (at most `login_attempts`): enough for the owner to mistype
 * once from a new address, few enough that a spread-out attack gets a fraction of its guesses.
 */
const OVER_CEILING_ATTEMPTS = 2;
/** Addresses remembered per user name as having logged in (the oldest is forgotten first). */
const KNOWN_CLIENTS_MAX = 64;

/**
 * The throttling of password logins, built so that an attacker cannot lock the owner out:
 * failures count per (user name, client address) (`login_attempts` in 15 minutes) and per client
 * address (3x that), so the attacker's address is stopped while the owner's still logs in. A
 * spread-out guessing attack that passes a ceiling per user name over all addresses (10x) slows
 * every address down rather than refusing them all: each may then fail only
 * {@link OVER_CEILING_ATTEMPTS} times in the window for that name, so an address the attacker has
 * used is stopped while a new one (the owner's phone, a new network) still gets in at its first
 * right password. Addresses that have logged in as that user before keep the full quota.
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
  readonly #overCeilingAttempts: number;
  // Addresses that have logged in as a user: the per-user ceiling does not slow them down.
  readonly #knownClients = new Map<string, Set<string>>();

  /** `now` (epoch ms) is for tests. */
  constructor(loginAttempts: number, now: () => number = Date.now) {
    this.#pair = new Throttle(loginAttempts, WINDOW_MS, now);
    this.#client = new Throttle(loginAttempts * 3, WINDOW_MS, now);
    this.#userCeiling = new Throttle(loginAttempts * USER_CEILING_FACTOR, WINDOW_MS, now);
    this.#overCeilingAttempts = Math.min(loginAttempts, OVER_CEILING_ATTEMPTS);
  }

  /** Seconds `client` must wait before trying user name `name` (lower case); 0: it may try now. */
  wait(name: string, client: string): number {
    const pair = `${name}\n${client}`;
    const known = this.#knownClients.get(name)?.has(client) ?? false;
    const overCeiling = !known && this.#userCeiling.retryAfter(name) > 0;
    return Math.max(
      overCeiling
        ? this.#pair.retryAfter(pair, this.#overCeilingAttempts)
        : this.#pair.retryAfter(pair),
      this.#client.retryAfter(client),
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
