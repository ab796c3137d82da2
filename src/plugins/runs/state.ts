import type { RunHistory } from './history.ts';

/** The `runs` plugin's state: the history writer, absent when `runs.record` is false. */
export interface RunsState {
  history: RunHistory | undefined;
  remove: (() => void) | undefined;
}
