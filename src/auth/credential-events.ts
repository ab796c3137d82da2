/**
 * Credentials that stopped holding: a token revoked, a session ended, a user removed or their
 * password changed (their sessions end), or `elsewhere`: another process (`pipit ... --local`)
 * wrote to the database, so anything may have. Expiry is not an event: a principal's `expiresAt`
 * says when.
 */
export type EndedCredentials =
  | { kind: 'token'; tokenId: string }
  | { kind: 'session'; sessionId: string }
  | { kind: 'user'; userId: number }
  | { kind: 'elsewhere' };

/**
 * Tells long-lived connections (WebSockets) at once when credentials stop holding, and keeps an
 * epoch that moves with every such change: a connection re-checks its credentials only when the
 * epoch moved, so that checking costs nothing per message.
 *
 * @example
 * const events = new CredentialEvents();
 * const stop = events.on((ended) => ended.kind === 'token' && closeSocketsOf(ended.tokenId));
 * events.emit({ kind: 'token', tokenId: 't1' }); // events.epoch is now 1
 */
export class CredentialEvents {
  #epoch = 0;
  readonly #listeners = new Set<(ended: EndedCredentials) => void>();

  /** Changes (grows) with every {@link CredentialEvents.emit}. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  on(listener: (ended: EndedCredentials) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(ended: EndedCredentials): void {
    this.#epoch++;
    for (const listener of this.#listeners) listener(ended);
  }
}
