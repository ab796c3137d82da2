// Swaps a symbolic link to outside the root onto a directory's path inside it, over and over, as a
// caller with file.move could: `node swapper-child.ts <root>`. <root>/d is a real directory and
// <root>/evil a link; each round parks d, moves evil onto d, then puts both back. Prints "ready"
// once running, and the number of rounds on SIGTERM. Used by race.test.ts.
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [root] = process.argv.slice(2) as [string];
const d = join(root, 'd');
const parked = join(root, 'parked');
const evil = join(root, 'evil');
let rounds = 0;

// The service may create <root>/d itself (file.write with parents) while it is missing: such a
// directory is removed so that the round can go on.
function move(from: string, to: string): void {
  for (;;) {
    try {
      renameSync(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR')
        throw err;
      // The service may be writing in it: try again until it is gone.
      try {
        rmSync(to, { recursive: true, force: true });
      } catch {
        // retried by the loop
      }
    }
  }
}

process.on('SIGTERM', () => {
  process.stdout.write(`rounds ${rounds}\n`, () => process.exit(0));
});
process.stdout.write('ready\n');
for (;;) {
  move(d, parked);
  move(evil, d);
  move(d, evil);
  move(parked, d);
  // Let the SIGTERM handler run now and then.
  if (++rounds % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
