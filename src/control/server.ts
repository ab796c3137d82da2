import { chmodSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { LOCAL_CALLER } from '../core/runs.ts';
import { toPipitError } from '../core/errors.ts';
import { parseJsonLimited } from '../core/json-limits.ts';
import { responseJson } from '../core/response-json.ts';
import type { Service } from '../app/service.ts';
import { runCommand } from './commands.ts';
import { ControlRequest, MAX_LINE_BYTES } from './protocol.ts';
import type { ControlReply } from './protocol.ts';
import { ensurePrivateDir } from './private-dir.ts';
import { controlSocketPath } from './socket-path.ts';

async function answer(service: Service, line: string): Promise<string> {
  let id = '';
  try {
    const message = ControlRequest.parse(parseJsonLimited(line, 'the control message'));
    id = message.id;
    if (message.kind === 'execute') {
      const { json } = responseJson(
        await service.execute(message.request, { transport: 'cli', caller: LOCAL_CALLER }),
      );
      return `{"id":${JSON.stringify(id)},"ok":true,"result":${json}}`;
    }
    const result = await runCommand(service, message.command, message.args);
    return JSON.stringify({ id, ok: true, result } satisfies ControlReply);
  } catch (err) {
    const error = toPipitError(err, 'BAD_REQUEST');
    return JSON.stringify({
      id,
      ok: false,
      error: { code: error.code, message: error.message },
    } satisfies ControlReply);
  }
}

// Only the instance holding the workdir lock gets here: a file at the path is left from a crash.
// unlink, not exists-then-unlink: a dangling symbolic link "does not exist" but blocks bind().
function removeStale(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function serve(service: Service, socket: Socket): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > MAX_LINE_BYTES) return socket.destroy();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      void answer(service, line).then((reply) => {
        if (!socket.destroyed) socket.write(`${reply}\n`);
      });
    }
  });
}

/**
 * The control socket of a running instance (`<workdir>/control/pipit.sock`, mode 0600 in a
 * directory of mode 0700 made before the socket: the file permissions are the authentication).
 * `pipit run` and the CLI's user and token commands go through it, so that they act on the running
 * service — its events reach the Events page, its caches see the change at once — instead of a
 * second copy. One JSON line per request and reply.
 * Only the instance holding the workdir lock starts it, so a socket file found here is stale.
 *
 * @example
 * const control = await startControlServer(service);
 * await control.close();
 */
export async function startControlServer(
  service: Service,
): Promise<{ path: string | undefined; close(): Promise<void> }> {
  const path = controlSocketPath(service.config.workdir);
  if (!path) {
    service.log.warn(
      { workdir: service.config.workdir },
      'the workdir path is too long for a control socket: "pipit run" and the CLI will work on their own copy of the service',
    );
    return { path, close: () => Promise.resolve() };
  }
  // Private from before bind(): the socket file gets the umask's mode when it is created, and the
  // chmod below comes after a window in which anyone could connect (with umask 000, another user
  // did). In a 0700 directory nobody else can reach it, whatever its own mode.
  ensurePrivateDir(dirname(path));
  removeStale(path);
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    serve(service, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  server.unref();
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A CLI that keeps its connection open must not hold the shutdown.
        for (const socket of open) socket.destroy();
        removeStale(path);
      }),
  };
}
