import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { WalCheckpointer } from './checkpointer.ts';
import { openDatabase } from './db.ts';
import { PluginKv } from './plugin-kv.ts';
import { Runs } from './runs.ts';
import { Sessions } from './sessions.ts';
import { Tokens } from './tokens.ts';
import { Users } from './users.ts';
import { Variables } from './variables.ts';

/**
 * The embedded database and its tables. One per process; the CLI and a running service may open
 * the same file at once (WAL), and `changedElsewhere()` tells caches when the other one wrote.
 *
 * @example
 * const store = Store.open('/var/lib/pipit/pipit.db');
 * store.variables.set('x', 1);
 * await store.close();
 */
export class Store {
  readonly db: DatabaseSync;
  readonly users: Users;
  readonly sessions: Sessions;
  readonly tokens: Tokens;
  readonly variables: Variables;
  readonly runs: Runs;
  /** How often {@link Store.changedElsewhere} actually asks SQLite. */
  static readonly CHANGE_CHECK_MS = 250;
  private dataVersion: number;
  private lastCheck = -Infinity;
  // Prepared once: this runs on every authenticated request, and preparing costs more than running.
  private readonly dataVersionStmt: StatementSync;
  private readonly checkpointer: WalCheckpointer | undefined;

  private constructor(db: DatabaseSync, checkpointer?: WalCheckpointer) {
    this.db = db;
    this.checkpointer = checkpointer;
    this.users = new Users(db);
    this.sessions = new Sessions(db);
    this.tokens = new Tokens(db);
    this.variables = new Variables(db);
    this.runs = new Runs(db, checkpointer);
    this.dataVersionStmt = db.prepare('PRAGMA data_version');
    this.dataVersion = this.readDataVersion();
  }

  /** `onError`: told when the WAL checkpoint thread fails (SQLite then checkpoints by itself). */
  static open(path: string, onError?: (err: Error) => void): Store {
    const db = openDatabase(path);
    return new Store(db, path === ':memory:' ? undefined : new WalCheckpointer(db, path, onError));
  }

  pluginKv(plugin: string): PluginKv {
    return new PluginKv(this.db, plugin);
  }

  private readDataVersion(): number {
    return (this.dataVersionStmt.get() as { data_version: number }).data_version;
  }

  /**
   * True when another connection (e.g. `pipit token revoke` in another process) committed since the
   * last look. SQLite's data_version costs ~4 µs — 4% of a `/execute` under load — so it is read at
   * most every {@link Store.CHANGE_CHECK_MS} ms: another process's write is seen within that time
   * (this process's own writes need no look at all).
   */
  changedElsewhere(): boolean {
    const at = performance.now();
    if (at - this.lastCheck < Store.CHANGE_CHECK_MS) return false;
    this.lastCheck = at;
    const now = this.readDataVersion();
    if (now === this.dataVersion) return false;
    this.dataVersion = now;
    return true;
  }

  /** Closes the database (after the checkpoint thread's own connection, so the WAL is folded in). */
  async close(): Promise<void> {
    // Without a thread to wait for, the database is closed before this returns (no await).
    const stopping = this.checkpointer?.close();
    if (stopping) await stopping;
    if (this.db.isOpen) this.db.close();
  }
}

declare module '../core/services.ts' {
  interface ServiceParts {
    /** Users, tokens, sessions, variables, the run history and the plugins' own keys. */
    store: Store;
  }
}
