/**
 * A plugin's own key-value store: JSON values by key, kept across restarts, seen by no other
 * plugin. The store (src/store/plugin-kv.ts) implements it; plugins name only this interface.
 *
 * @example
 * kv.set('tokens', { access_token: 'abc', expires_at: 1795400000 });
 * kv.get<{ access_token: string }>('tokens')?.access_token; // 'abc'
 */
export interface KeyValueStore {
  /** The value stored under `key`, or undefined. */
  get<T = unknown>(key: string): T | undefined;
  /** Stores `value` (anything JSON can write) under `key`, replacing what was there. */
  set(key: string, value: unknown): void;
  /** Removes `key`; nothing happens when it is not there. */
  delete(key: string): void;
}
