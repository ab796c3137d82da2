import type { KeyValueStore } from '../../core/key-value.ts';

/** The key of the plugin's store that holds the names of the automations switched off. */
export const DISABLED_KEY = 'disabled';

/**
 * The `automations` plugin's state: the names switched off (kept in its key-value store, so the
 * switch survives restarts and reloads) and a queue that runs one change of the files at a time.
 */
export interface AutomationsState {
  kv: KeyValueStore;
  disabled: Set<string>;
  /** Runs `task` after the changes queued before it (two saves never interleave their writes). */
  serial<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * The plugin's state over its key-value store.
 *
 * @example
 * const state = automationsState(services.store.pluginKv('automations'));
 * state.disabled.has('cron.Nightly');
 */
export function automationsState(kv: KeyValueStore): AutomationsState {
  const stored = kv.get<unknown>(DISABLED_KEY);
  const disabled = new Set(
    Array.isArray(stored) ? stored.filter((n): n is string => typeof n === 'string') : [],
  );
  let queue: Promise<unknown> = Promise.resolve();
  return {
    kv,
    disabled,
    serial<T>(task: () => Promise<T>): Promise<T> {
      const next = queue.then(task, task);
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** Stores the switch of `name` (full name, `cron.Nightly`) and keeps the set in step. */
export function setDisabled(state: AutomationsState, name: string, disabled: boolean): void {
  if (disabled) state.disabled.add(name);
  else state.disabled.delete(name);
  state.kv.set(DISABLED_KEY, [...state.disabled].sort());
}
