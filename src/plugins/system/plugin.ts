// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { SystemConfig } from './config.ts';
import { CPU_ACTIONS } from './cpu-actions.ts';
import { readProcStat } from './cpu.ts';
import { DISK_ACTIONS } from './disks.ts';
import { head } from './head.ts';
import { HOST_ROOTS } from './host.ts';
import { MEMORY_ACTIONS } from './memory.ts';
import { NET_ACTIONS } from './net-actions.ts';
import { PROCESS_ACTIONS } from './process-actions.ts';
import { SENSOR_ACTIONS } from './sensor-actions.ts';
import type { SystemState } from './state.ts';

/**
 * The host's health with Platypush's `system` action names and psutil's field names, read from
 * Linux's /proc and /sys: CPU, memory, disks, network, sensors, processes.
 *
 * @example
 * // config.yaml: nothing needed (on by default); to allow system.processes:
 * // system:
 * //   allow_processes: true
 */
export default definePlugin({
  ...head,
  summary: "The host's health: CPU, memory, disks, network, sensors and processes (Linux).",
  config: SystemConfig,
  actions: [
    ...CPU_ACTIONS,
    ...MEMORY_ACTIONS,
    ...DISK_ACTIONS,
    ...NET_ACTIONS,
    ...SENSOR_ACTIONS,
    ...PROCESS_ACTIONS,
  ],
  init: async ({ config }): Promise<SystemState> => {
    const state: SystemState = { config, roots: HOST_ROOTS, lastCpu: new Map() };
    // The first non-blocking cpu_percent compares with this reading, as psutil's with the one
    // taken at import. Off Linux there is nothing to read: the actions say so when called.
    if (process.platform === 'linux')
      state.lastCpu.set(
        'start',
        await readProcStat(HOST_ROOTS).catch(() => ({ total: [], per: [] })),
      );
    return state;
  },
});
