import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/service.ts';

const CHILD = join(import.meta.dirname, 'writer-child.ts');
const SIZE = 4 * 1024 * 1024;

describe('file.write atomicity under kill -9', () => {
  let root: string;
  let cleanup: () => void;
  beforeAll(() => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    root = join(tmp.dir, 'root');
    mkdirSync(root);
    writeFileSync(join(root, 'target.txt'), 'old');
  });
  afterAll(() => cleanup());

  it('leaves the old or the new complete content, never a part, and no temporary file under a visible name', async () => {
    const outcomes = new Set<string>();
    const temps = new Set<string>();
    // At least 5 rounds, and more (up to 25) until a kill has landed mid-write: on a loaded
    // machine the timing of the first five may all fall between writes.
    for (let round = 0; round < 25 && (round < 5 || temps.size === 0); round++) {
      const child = spawn(process.execPath, [CHILD, root, String(SIZE)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = once(child, 'exit');
      // Wait until it has completed some writes, then kill it at a moment that varies by round,
      // mostly in the middle of the next one.
      const target = `wrote ${1 + (round % 3)}`;
      const lines = createInterface({ input: child.stdout });
      await new Promise<void>((resolve) =>
        lines.on('line', (line) => line === target && resolve()),
      );
      await new Promise((resolve) => setTimeout(resolve, 3 + round * 29));
      child.kill('SIGKILL');
      await exited;
      expect(child.signalCode).toBe('SIGKILL');
      const content = readFileSync(join(root, 'target.txt'), 'utf8');
      const kind =
        content === 'a'.repeat(SIZE)
          ? 'a'
          : content === 'b'.repeat(SIZE)
            ? 'b'
            : `partial (${content.length} bytes)`;
      outcomes.add(kind);
      expect(kind, `round ${round}`).toMatch(/^[ab]$/);
      const visible = readdirSync(root).filter((name) => !name.startsWith('.'));
      expect(visible).toEqual(['target.txt']);
      // Whatever was being written when the kill came is a hidden temporary file, never the target.
      for (const name of readdirSync(root).filter((n) => n.startsWith('.'))) {
        expect(name).toMatch(/^\.target\.txt\.\d+\.[0-9a-f]{8}\.pipit-tmp$/);
        temps.add(name);
      }
    }
    expect([...outcomes].every((o) => o === 'a' || o === 'b')).toBe(true);
    // Some kill landed in the middle of a write (else the test proved nothing).
    expect(temps.size).toBeGreaterThan(0);
  }, 90_000);
});
