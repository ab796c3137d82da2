import type { AllowList } from './allow.ts';
import type { ShellConfig } from './config.ts';
import type { ShellProcess } from './process.ts';

/** A command started with `stream` or `background`, until it ends. */
export interface ShellJob {
  id: string;
  process: ShellProcess;
  /** The command as the caller wrote it. */
  cmd: string | string[];
}

/** What the shell plugin's actions share. */
export interface ShellState {
  config: ShellConfig;
  allow: AllowList | undefined;
  /** Commands running in the background, by id: stopped with the plugin. */
  jobs: Map<string, ShellJob>;
  /** Commands a call is waiting for: stopped with the plugin too. */
  running: Set<ShellProcess>;
}
