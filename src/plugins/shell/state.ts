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
  /** Every command until its process group is empty (jobs, waited-for calls, what they left). */
  groups: Set<ShellProcess>;
}
