import type { Dialect } from './placeholders.ts';
import type { Row } from './values.ts';

/** One statement with its values, placeholders already numbered for the engine's dialect. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * A database behind an engine URL, as the actions use it. Every failure is a PipitError (see
 * errors.ts) whose message names the engine by {@link Engine.label}.
 */
export interface Engine {
  readonly dialect: Dialect;
  /** The URL without its password, for messages. */
  readonly label: string;
  /** Runs one statement on its own and answers the rows it returns (none: `[]`). */
  query(action: string, statement: Statement, signal: AbortSignal): Promise<Row[]>;
  /** Runs statements in one transaction: all of them or none; the rows of each. */
  batch(action: string, statements: Statement[], signal: AbortSignal): Promise<Row[][]>;
  /** Runs a script of `;`-separated statements without values. */
  script(action: string, sql: string, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** The limits every engine applies, from the `db:` section. */
export interface EngineLimits {
  /** Seconds to connect to PostgreSQL or wait for a free pooled connection. */
  connectTimeout: number;
  /** Seconds a PostgreSQL statement may run. */
  statementTimeout: number;
  /** Seconds a SQLite statement waits for a database another process has locked. */
  busyTimeout: number;
  /** Connections per PostgreSQL pool. */
  poolSize: number;
}
