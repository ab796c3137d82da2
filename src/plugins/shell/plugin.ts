// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { head } from './head.ts';
import { compileAllow } from './allow.ts';
import { ShellConfig } from './config.ts';
import { exec } from './exec.ts';
import { jobs, kill } from './jobs.ts';
import type { ShellState } from './state.ts';

/**
 * `shell`: runs commands on the host as the service's user. Off until the configuration has a
 * `shell:` section; `shell.allow` narrows what may run.
 *
 * @example
 * // config.yaml: shell: {allow: ['uptime']}
 * await run('shell.exec', { cmd: 'uptime' });
 */
export default definePlugin<ShellConfig, ShellState>({
  ...head,
  summary:
    'Runs commands on this host as the service user: output, exit status, timeouts that kill the whole process group, streamed output as events.',
  config: ShellConfig,
  actions: [exec, kill, jobs],
  init: ({ config }) => ({
    config,
    allow: config.allow ? compileAllow(config.allow) : undefined,
    jobs: new Map(),
    groups: new Set(),
  }),
  // Ends every process group a command started, including what a finished command left behind.
  stop: async (state) => {
    const all = [...state.groups];
    for (const proc of all) proc.kill('stopped');
    await Promise.all(all.flatMap((proc) => [proc.done, proc.groupGone]));
  },
});
