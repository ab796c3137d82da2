import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Expands a leading `~` and resolves relative paths against `base`. */
export function resolvePath(path: string, base: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  return isAbsolute(expanded) ? expanded : resolve(base, expanded);
}

/** `$XDG_CONFIG_HOME/pipit/config.yaml`, or `~/.config/pipit/config.yaml`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'pipit', 'config.yaml');
}

/** `$XDG_DATA_HOME/pipit`, or `~/.local/share/pipit`: the default workdir. */
export function defaultWorkdir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'pipit');
}

/**
 * Finds the configuration: `explicit` (`--config`), else `$PIPIT_CONFIG` (used even when missing),
 * else the first existing of `./config.yaml`, the user config path and `/etc/pipit/config.yaml`.
 *
 * @example
 * findConfig({ explicit: undefined }); // '/home/me/.config/pipit/config.yaml' or null
 */
export function findConfig(opts: {
  explicit?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}): string | null {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  if (opts.explicit) return resolvePath(opts.explicit, cwd);
  const candidates = [
    env.PIPIT_CONFIG ? resolvePath(env.PIPIT_CONFIG, cwd) : undefined,
    join(cwd, 'config.yaml'),
    userConfigPath(env),
    '/etc/pipit/config.yaml',
  ];
  if (env.PIPIT_CONFIG) return candidates[0]!;
  return candidates.find((p): p is string => p !== undefined && existsSync(p)) ?? null;
}
