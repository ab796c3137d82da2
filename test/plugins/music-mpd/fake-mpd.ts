import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** What the fake answers to one command line: its lines, an ACK message, or nothing ever. */
export type FakeAnswer = string[] | { ack: [code: number, message: string] } | 'hang';

/**
 * A scripted MPD on 127.0.0.1, for the answers a real one gives only by chance (a seek refused in
 * the instant before its decoder starts): it greets with `greeting`, and answers each command line
 * (`status`, `seekcur "40"`) with `answer`, command lists included. `idle` never answers.
 *
 * @example
 * const fake = await startFakeMpd((line) => (line === 'status' ? ['state: stop'] : []));
 */
export async function startFakeMpd(
  answer: (line: string) => FakeAnswer,
  greeting = 'OK MPD 0.23.5',
): Promise<{ port: number; lines: string[]; close(): Promise<void> }> {
  const lines: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write(`${greeting}\n`);
    let buffer = '';
    let list: string[] | undefined;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let at: number;
      while ((at = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        lines.push(line);
        if (line === 'command_list_ok_begin') list = [];
        else if (line === 'command_list_end') {
          socket.write(run(list ?? [], true));
          list = undefined;
        } else if (list) list.push(line);
        else socket.write(run([line], false));
      }
    });
  });
  const run = (commands: string[], isList: boolean): string => {
    let out = '';
    for (const [i, line] of commands.entries()) {
      const said = line.startsWith('idle') ? 'hang' : answer(line);
      if (said === 'hang') return out;
      if ('ack' in said)
        return `${out}ACK [${said.ack[0]}@${i}] {${line.split(' ')[0]}} ${said.ack[1]}\n`;
      out += said.map((l) => `${l}\n`).join('') + (isList ? 'list_OK\n' : '');
    }
    return `${out}OK\n`;
  };
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    lines,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
