import { userInfo } from 'node:os';

// What a call of a plugin that is off says. Here rather than in the plugins: the catalog
// (catalog.ts) names plugins without loading them, and its errors must say the same thing.

function serviceUser(): string {
  try {
    return `"${userInfo().username}"`;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/**
 * Why `shell` is off and how to turn it on.
 *
 * @example
 * definePlugin({ name: 'shell', disabledHint: SHELL_DISABLED_HINT, ... });
 */
export const SHELL_DISABLED_HINT = `it runs any command on this host as the service's user (${serviceUser()}), so it is off until the configuration has a "shell:" section. Add "shell: {}" to enable it, or "shell: {allow: ['uptime', 'systemctl status *']}" to allow only those commands, then restart Pipit`;

/**
 * Why `file` is off and how to turn it on.
 *
 * @example
 * definePlugin({ name: 'file', disabledHint: FILE_DISABLED_HINT, ... });
 */
export const FILE_DISABLED_HINT = `it reads, writes and deletes files on this host as the service's user, so it is off until the configuration has a "file:" section. Add "file: {}" to enable it for every path the service user can reach, or "file: {roots: [/srv/pipit]}" to confine it to those directories, then restart Pipit`;
