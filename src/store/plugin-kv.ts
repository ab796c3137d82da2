import type { DatabaseSync } from 'node:sqlite';
import type { KeyValueStore } from '../core/key-value.ts';

/**
 * Per-plugin JSON storage (e.g. the Spotify plugin's OAuth tokens), so credentials survive restart.
 *
 * @example
 * const kv = store.pluginKv('music.spotify');
 * kv.set('tokens', { access_token: '...' });
 */
export class PluginKv implements KeyValueStore {
  private readonly db: DatabaseSync;
  private readonly plugin: string;

  constructor(db: DatabaseSync, plugin: string) {
    this.db = db;
    this.plugin = plugin;
  }

  get<T = unknown>(key: string): T | undefined {
    const row = this.db
      .prepare('SELECT value FROM plugin_kv WHERE plugin = ? AND key = ?')
      .get(this.plugin, key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.db
      .prepare(
        'INSERT INTO plugin_kv (plugin, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(plugin, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      )
      .run(this.plugin, key, JSON.stringify(value), Date.now() / 1000);
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM plugin_kv WHERE plugin = ? AND key = ?').run(this.plugin, key);
  }
}
