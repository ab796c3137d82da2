import { PipitError } from '../api/index.ts';
import type { Engine, EngineLimits } from './engine.ts';
import { parseEngineUrl } from './engine-url.ts';
import { postgresEngine } from './pg-engine.ts';
import { sqliteEngine } from './sqlite-engine.ts';

/** How many engine URLs stay open at once; the least recently used one is closed past it. */
export const MAX_ENGINES = 16;

/**
 * The engines the plugin has opened, one per URL (a pool per PostgreSQL URL, a connection per
 * SQLite file), all closed by {@link Engines.close} when the plugin stops.
 *
 * @example
 * const engines = new Engines(config.engine, limits, log);
 * const engine = engines.get('db.select', args.engine);
 */
export class Engines {
  private readonly open = new Map<string, Engine>();
  private closed = false;
  private readonly defaultUrl: string | undefined;
  private readonly limits: EngineLimits;
  private readonly onIdleError: (err: Error, label: string) => void;

  constructor(
    defaultUrl: string | undefined,
    limits: EngineLimits,
    onIdleError: (err: Error, label: string) => void,
  ) {
    this.defaultUrl = defaultUrl;
    this.limits = limits;
    this.onIdleError = onIdleError;
  }

  /** The engine for a call: its own `engine` URL, else the configured one. */
  get(action: string, url: string | undefined): Engine {
    const chosen = url ?? this.defaultUrl;
    if (!chosen)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `${action}: no engine: pass "engine" (e.g. sqlite:////var/lib/pipit/data.db), or set db.engine in the configuration`,
      );
    if (this.closed) throw new PipitError('UNAVAILABLE', `${action}: the db plugin is stopping`);
    const known = this.open.get(chosen);
    if (known) {
      // Most recently used last, so the first one is the one to close.
      this.open.delete(chosen);
      this.open.set(chosen, known);
      return known;
    }
    const target = parseEngineUrl(chosen);
    const engine =
      target.kind === 'sqlite'
        ? sqliteEngine(target, this.limits)
        : postgresEngine(target, this.limits, (err) => this.onIdleError(err, target.label));
    this.open.set(chosen, engine);
    if (this.open.size > MAX_ENGINES) {
      const [oldest, old] = this.open.entries().next().value!;
      this.open.delete(oldest);
      void old.close().catch((err: unknown) => this.onIdleError(err as Error, old.label));
    }
    return engine;
  }

  /** Closes every engine (pools wait for the statements running on them). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.allSettled(all.map((e) => e.close()));
  }
}
