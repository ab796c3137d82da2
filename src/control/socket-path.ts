import { join } from 'node:path';

/** Unix socket paths are limited to about 108 bytes; keep a margin. */
const MAX_SOCKET_PATH = 100;

/**
 * The directory that holds the control socket: `<workdir>/control`, mode 0700. The socket is
 * created inside it, so nobody else can reach the socket from the moment it exists (a socket file
 * takes the umask's mode at bind(), before any chmod could tighten it).
 *
 * @example
 * controlSocketDir('/var/lib/pipit'); // '/var/lib/pipit/control'
 */
export function controlSocketDir(workdir: string): string {
  return join(workdir, 'control');
}

/**
 * The control socket of the instance that holds a workdir, or undefined when the workdir's path is
 * too long for a Unix socket (then the CLI works on its own, as with `--local`).
 *
 * @example
 * controlSocketPath('/var/lib/pipit'); // '/var/lib/pipit/control/pipit.sock'
 */
export function controlSocketPath(workdir: string): string | undefined {
  const path = join(controlSocketDir(workdir), 'pipit.sock');
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}
