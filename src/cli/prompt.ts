import { createInterface } from 'node:readline';

/**
 * Reads a password: the first line of standard input with `fromStdin`, otherwise a prompt on the
 * terminal with the typed characters hidden.
 *
 * @example
 * const password = await readPassword('Password: ', { fromStdin: false });
 */
export async function readPassword(
  question: string,
  opts: { fromStdin: boolean },
): Promise<string> {
  if (opts.fromStdin || !process.stdin.isTTY) {
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
