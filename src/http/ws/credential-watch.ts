import type { Auth, Principal } from '../../auth/auth.ts';
import type { EndedCredentials } from '../../auth/credential-events.ts';
import { principalError } from '../../auth/principal-check.ts';
import type { PipitError } from '../../core/errors.ts';
import type { Store } from '../../store/store.ts';

/** What the watch needs of a connection. */
export interface Watched {
  principal: Principal;
  /** Sends the endpoint's error frame and closes with 1008. */
  refuse(error: PipitError): void;
}

// setTimeout's longest delay; a later expiry re-arms the timer when it fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

interface State {
  /** The credential epoch when the connection's credentials were last known to hold. */
  epoch: number;
  keys: string[];
  timer: NodeJS.Timeout | undefined;
}

const keysOf = ({ principal }: Watched): string[] => [
  `u:${principal.userId}`,
  ...(principal.tokenId ? [`t:${principal.tokenId}`] : []),
  ...(principal.sessionId ? [`s:${principal.sessionId}`] : []),
];

/**
 * Ends WebSockets as soon as their credentials do. A token revoked, a session ended (logout), a user
 * removed or their password changed in this process closes the matching sockets at once; an expiry
 * closes them at the expiry time (a timer); a change written by another process (`pipit ... --local`)
 * is noticed within a second (a cheap poll of SQLite's data_version while sockets are open), and in
 * any case before the next frame is acted on ({@link CredentialWatch.admit}). A frame costs a clock
 * read and a comparison; the database is asked only when the credential epoch has moved.
 *
 * @example
 * const watch = new CredentialWatch(service.auth, service.store, { pollMs: 1000 });
 * const unwatch = watch.add(conn);
 * socket.on('message', (data) => { if (!watch.admit(conn)) return; ... });
 */
export class CredentialWatch<C extends Watched> {
  readonly #auth: Auth;
  readonly #store: Store;
  readonly #state = new Map<C, State>();
  readonly #byKey = new Map<string, Set<C>>();
  readonly #stopListening: () => void;
  readonly #poll: NodeJS.Timeout;

  constructor(auth: Auth, store: Store, opts: { pollMs: number }) {
    this.#auth = auth;
    this.#store = store;
    this.#stopListening = auth.credentials.on((ended) => this.#ended(ended));
    this.#poll = setInterval(() => {
      if (this.#state.size) auth.noticeOtherProcesses();
    }, opts.pollMs);
    this.#poll.unref();
  }

  /** Watches a connection; returns the function that stops watching it (call it on close). */
  add(conn: C): () => void {
    const keys = keysOf(conn);
    this.#state.set(conn, { epoch: this.#auth.credentials.epoch, keys, timer: undefined });
    for (const key of keys) {
      let set = this.#byKey.get(key);
      if (!set) this.#byKey.set(key, (set = new Set()));
      set.add(conn);
    }
    this.#armExpiry(conn);
    return () => this.#forget(conn);
  }

  /** Token ids with open connections. */
  get tokens(): number {
    let n = 0;
    for (const key of this.#byKey.keys()) if (key.startsWith('t:')) n++;
    return n;
  }

  /**
   * Per frame, before acting on it: true while the connection's credentials hold; false once they
   * do not (the connection is then refused, and every later frame is ignored).
   */
  admit(conn: C): boolean {
    const state = this.#state.get(conn);
    if (!state) return false;
    const { expiresAt } = conn.principal;
    if (expiresAt !== undefined && expiresAt * 1000 <= Date.now()) return this.#check(conn);
    this.#auth.noticeOtherProcesses();
    return state.epoch === this.#auth.credentials.epoch || this.#check(conn);
  }

  /** Stops listening and polling (on shutdown); connections draining are still admitted. */
  stop(): void {
    this.#stopListening();
    clearInterval(this.#poll);
    for (const state of this.#state.values()) clearTimeout(state.timer);
  }

  #ended(ended: EndedCredentials): void {
    const affected =
      ended.kind === 'elsewhere'
        ? this.#state.keys()
        : (this.#byKey.get(
            ended.kind === 'token'
              ? `t:${ended.tokenId}`
              : ended.kind === 'session'
                ? `s:${ended.sessionId}`
                : `u:${ended.userId}`,
          ) ?? []);
    for (const conn of [...affected]) this.#check(conn);
  }

  // True while the credentials hold; else the connection is forgotten and refused.
  #check(conn: C): boolean {
    const state = this.#state.get(conn);
    if (!state) return false;
    state.epoch = this.#auth.credentials.epoch;
    const error = principalError(this.#store, conn.principal);
    if (!error) return true;
    this.#forget(conn);
    conn.refuse(error);
    return false;
  }

  #armExpiry(conn: C): void {
    const state = this.#state.get(conn);
    const { expiresAt } = conn.principal;
    if (!state || expiresAt === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, expiresAt * 1000 - Date.now()));
    state.timer = setTimeout(() => {
      if (this.#check(conn)) this.#armExpiry(conn);
    }, delay);
    state.timer.unref();
  }

  #forget(conn: C): void {
    const state = this.#state.get(conn);
    if (!state) return;
    clearTimeout(state.timer);
    this.#state.delete(conn);
    for (const key of state.keys) {
      const set = this.#byKey.get(key);
      set?.delete(conn);
      if (set?.size === 0) this.#byKey.delete(key);
    }
  }
}
