/** One logged Spotify-surface request (control requests are not logged). */
export interface LogEntry {
  seq: number;
  /** Virtual time of the request (Unix ms). */
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Parsed JSON/form body, or the raw text, or null. */
  body: unknown;
  status: number;
  /** ID of the fault that answered, if any. */
  fault?: string;
}

/** Filter for `requests()`: method and/or path (exact or `*` glob). */
export interface LogFilter {
  method?: string;
  path?: string;
}

/** Append-only log so tests can count calls ("retried exactly twice"). */
export class RequestLog {
  #entries: LogEntry[] = [];
  #seq = 0;

  /**
   * @example
   * log.add({ at: 0, method: 'GET', path: '/v1/me', query: {}, body: null, status: 200 });
   */
  add(entry: Omit<LogEntry, 'seq'>): LogEntry {
    const full = { ...entry, seq: ++this.#seq };
    this.#entries.push(full);
    return full;
  }

  /** Matching entries, oldest first. */
  list(filter: LogFilter = {}): LogEntry[] {
    const path =
      filter.path === undefined
        ? null
        : new RegExp(`^${filter.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    return this.#entries.filter(
      (e) =>
        (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
        (path === null || path.test(e.path)),
    );
  }

  clear(): void {
    this.#entries = [];
  }
}
