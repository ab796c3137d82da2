import type { SystemConfig } from './config.ts';
import type { CpuSample } from './cpu.ts';
import type { Roots } from './host.ts';

/** What the plugin keeps between calls. */
export interface SystemState {
  config: SystemConfig;
  /** Where /proc, /sys and /etc are read (the host's, or a test's fixtures). */
  roots: Roots;
  /**
   * The /proc/stat sample each non-blocking reading (cpu_percent, cpu_times with percent) compares
   * with, by action: the previous call's, or the plugin's start. psutil keeps the same.
   */
  lastCpu: Map<string, CpuSample>;
}
