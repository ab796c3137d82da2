import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { pipitDir } from './file-app.ts';

const CHILD = join(import.meta.dirname, 'swapper-child.ts');
const ATTEMPTS = 3000;
const PARALLEL = 8;

// A caller with the file plugin only may move a link to outside the root onto a path inside it
// while another of its calls is using that path: the call must stay inside the root, whichever
// moment the link lands.
describe('file.roots against a link swapped onto the path', () => {
  let t: TestApp;
  let root: string;
  let outside: string;
  let cleanup: () => void;

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    root = join(tmp.dir, 'root');
    outside = join(tmp.dir, 'outside');
    mkdirSync(join(root, 'd'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'd', 't.txt'), 'inside');
    writeFileSync(join(outside, 't.txt'), 'SECRET');
    symlinkSync(outside, join(root, 'evil'));
    t = await makeApp(`file:\n  roots: [${JSON.stringify(root)}]\n`, { dir: pipitDir(tmp.dir) });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });

  it(`never writes or reads outside in ${ATTEMPTS} attempts of file.write {parents} and file.read`, async () => {
    const child = spawn(process.execPath, [CHILD, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stdout });
    let rounds = -1;
    try {
      await new Promise<void>((resolve, reject) => {
        lines.on('line', (line) => {
          if (line === 'ready') resolve();
          const m = /^rounds (\d+)$/.exec(line);
          if (m) rounds = Number(m[1]);
        });
        child.once('exit', () => reject(new Error('the swapping child exited early')));
      });
      const reads = new Map<unknown, number>();
      let written = 0;
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < ATTEMPTS; i = next++) {
          if (i % 2 === 0) {
            const res = await call(t, 'file.write', {
              file: `d/sub/n${i}.txt`,
              content: 'x',
              parents: true,
            });
            if (res.errors.length === 0) written++;
          } else {
            const res = await call(t, 'file.read', { file: 'd/t.txt' });
            const key = res.errors.length === 0 ? res.output : (res.reason ?? res.code);
            reads.set(key, (reads.get(key) ?? 0) + 1);
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      child.kill('SIGTERM');
      await exited;
      // Nothing outside was returned, nor created: the only file there is still the secret.
      expect(reads.get('SECRET') ?? 0).toBe(0);
      expect(readdirSync(outside)).toEqual(['t.txt']);
      expect(readFileSync(join(outside, 't.txt'), 'utf8')).toBe('SECRET');
      // The race was run: the link moved many times, and calls succeeded inside meanwhile.
      expect(rounds).toBeGreaterThan(100);
      expect(reads.get('inside') ?? 0).toBeGreaterThan(0);
      expect(written).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});
