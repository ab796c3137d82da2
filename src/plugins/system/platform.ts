import { defineAction, PipitError } from '../api/index.ts';
import type { PluginAction, z } from '../api/index.ts';
import type { SystemState } from './state.ts';

/**
 * Refuses an action on a host that is not Linux: the plugin reads /proc and /sys, which other
 * systems do not have. `platform` is a parameter so that a test can ask as another host would.
 *
 * @example
 * requireLinux('mem_virtual', 'darwin');
 * // throws UNAVAILABLE: system.mem_virtual is not supported on darwin: it reads Linux's /proc
 */
export function requireLinux(action: string, platform: string = process.platform): void {
  if (platform !== 'linux')
    throw new PipitError(
      'UNAVAILABLE',
      `system.${action} is not supported on ${platform}: it reads Linux's /proc`,
      { details: { platform } },
    );
}

/**
 * Defines one of the plugin's actions: refused off Linux, and any error it meets reading the host
 * (a file gone, a permission) turned into ACTION_FAILED naming the action and the file.
 *
 * @example
 * export const loadAvg = systemAction({ name: 'load_avg', summary: '...', params: {}, run: ... });
 */
export function systemAction<P extends Record<string, z.ZodType>, R>(
  action: PluginAction<P, SystemState, R>,
): PluginAction<P, SystemState, R> {
  return defineAction({
    ...action,
    run: async (args, ctx) => {
      requireLinux(action.name);
      try {
        return await action.run(args, ctx);
      } catch (err) {
        if (err instanceof PipitError) throw err;
        const path = (err as NodeJS.ErrnoException).path;
        throw new PipitError(
          'ACTION_FAILED',
          `system.${action.name}: ${path ? `cannot read ${path}: ` : ''}${(err as Error).message}`,
          { cause: err },
        );
      }
    },
  });
}
