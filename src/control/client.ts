import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { PipitError } from '../core/errors.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { ControlReply } from './protocol.ts';
import { controlSocketPath } from './socket-path.ts';

/** A connection to a running instance's control socket. */
export interface ControlClient {
  /** Sends one request line and resolves with its result; rejects with the service's error. */
  call(
    message:
      { kind: 'execute'; request: unknown } | { kind: 'command'; command: string; args: unknown },
  ): Promise<unknown>;
  close(): void;
}

/**
 * Connects to the control socket of the instance running on `workdir`. Undefined when none runs
 * (no socket file, or a stale one nobody listens on). A socket this user may not open is an error
 * that says what to do, rather than a silent fallback to a second copy of the service.
 *
 * @example
 * const control = await openControl('/var/lib/pipit');
 * if (control) console.log(await control.call({ kind: 'command', command: 'user.list', args: {} }));
 */
export async function openControl(workdir: string): Promise<ControlClient | undefined> {
  const path = controlSocketPath(workdir);
  if (!path || !existsSync(path)) return undefined;
  let socket: Socket;
  try {
    socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(path, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNREFUSED' || code === 'ENOENT') return undefined;
    if (code === 'EACCES' || code === 'EPERM')
      throw new PipitError(
        'FORBIDDEN',
        `the running Pipit's control socket ${path} belongs to another user: run this as the service's user (e.g. sudo -u pipit pipit ...), or add --local to work on the database directly`,
        { cause: err },
      );
    throw err;
  }
  const pending = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void }
  >();
  let buffered = '';
  let counter = 0;
  socket.setEncoding('utf8');
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, newline)) as ControlReply;
      buffered = buffered.slice(newline + 1);
      const waiter = pending.get(reply.id);
      pending.delete(reply.id);
      if (!waiter) continue;
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new PipitError(reply.error.code as ErrorCode, reply.error.message));
    }
  });
  socket.on('close', () =>
    failAll(
      new PipitError(
        'UNAVAILABLE',
        'the running Pipit closed the control connection (is it stopping?)',
      ),
    ),
  );
  socket.on('error', () => undefined);
  return {
    call(message) {
      const id = String(++counter);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.write(`${JSON.stringify({ id, ...message })}\n`);
      });
    },
    close: () => socket.end(),
  };
}
