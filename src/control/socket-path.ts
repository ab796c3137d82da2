import { join } from 'node:path';

/** Unix socket paths are limited to about 108 bytes; keep a margin. */
const MAX_SOCKET_PATH = 100;

/**
 * The control socket of the instance that holds a workdir, or undefined when the workdir's path is
 * too long for a Unix socket (then the CLI works on its own, as with `--local`).
 *
 * @example
 * controlSocketPath('/var/lib/pipit'); // '/var/lib/pipit/pipit.sock'
 */
export function controlSocketPath(workdir: string): string | undefined {
  const path = join(workdir, 'pipit.sock');
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}
