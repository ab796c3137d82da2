import { PipitError } from '../core/errors.ts';
import { createInterface } from 'node:readline';

/**
 * Reads a password: the first line of standard input with `fromStdin`, otherwise a prompt on the
 * terminal with the typed characters hidden. Without either, BAD_REQUEST says to use
 * `--password-stdin` (naming `command` in the example).
 *
 * @example
 * const password = await readPassword('Password: ', { fromStdin: false, command: 'user add ada' });
 */
export async function readPassword(
  question: string,
  opts: { fromStdin: boolean; command: string },
): Promise<string> {
  if (!opts.fromStdin && !process.stdin.isTTY) {
    throw new PipitError(
      'BAD_REQUEST',
      `no terminal to type the password on: give it on standard input with --password-stdin, e.g. printf '%s\\n' "$PASSWORD" | pipit ${opts.command} --password-stdin`,
    );
  }
  if (opts.fromStdin) {
    let data = '';
    for await (const chunk of process.stdin) data += String(chunk);
    return data.split(/\r?\n/)[0] ?? '';
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const output = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stderr.write(question);
  output._writeToOutput = () => undefined;
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return answer;
}
