// A save is atomic: a crash between the write and the rename leaves the old file whole, and a
// reload that refuses the written text puts the previous one back; the running automations stay.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GetOutput } from '../../../src/plugins/automations/wire.ts';
import {
  KEPT_VERSIONS,
  keepPrevious,
  previousVersions,
} from '../../../src/plugins/automations/atomic-write.ts';
import { automationsApp, callAs, ok } from './app.ts';

const NODE = resolve('node_modules/.bin/node');
const WRITER = resolve('src/plugins/automations/atomic-write.ts');

let t: Awaited<ReturnType<typeof automationsApp>>;
beforeEach(async () => {
  t = await automationsApp('procedure.kept:\n  - return: 1\n', {
    scripts: { 'ok.mjs': "import { procedure } from 'pipit';\nprocedure('s', () => 1);\n" },
  });
});
afterEach(() => t.close());
const dir = () => join(t.configPath, '..');

// Runs writeAtomic in a child process that kills itself (SIGKILL) between the write and the rename.
function crashMidWrite(file: string, text: string): Promise<NodeJS.Signals | null> {
  const code = `import { writeAtomic } from ${JSON.stringify(WRITER)};
writeAtomic(${JSON.stringify(file)}, ${JSON.stringify(text)}, () => process.kill(process.pid, 'SIGKILL'));`;
  const child = spawn(NODE, ['--input-type=module', '-e', code], { stdio: 'ignore' });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('exit', (_code, signal) => done(signal));
  });
}

describe('writing a file of automations', () => {
  it('leaves the old file whole when the process dies between the write and the rename', async () => {
    const yaml = 'procedure.hello:\n  - return: 1\n';
    await ok(t, 'automations.save', { yaml });
    const file = join(dir(), 'automations.yaml');
    expect(await crashMidWrite(file, 'procedure.hello:\n  - return: 2\n')).toBe('SIGKILL');
    expect(readFileSync(file, 'utf8')).toBe(yaml);
    // the new text reached the disk beside it, under a name nothing loads
    const stray = readdirSync(dir()).filter((f) => f.endsWith('.tmp'));
    expect(stray).toHaveLength(1);
    expect(readFileSync(join(dir(), stray[0]!), 'utf8')).toBe('procedure.hello:\n  - return: 2\n');
    await t.service.services.userConfig!.reload();
    expect((await callAs(t, 'procedure.hello')).output).toBe(1);
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.hello' });
    await ok(t, 'automations.save', { yaml: got.yaml.replace('1', '3'), version: got.version });
    expect((await callAs(t, 'procedure.hello')).output).toBe(3);
  });

  it('puts the previous text back when the reload refuses what was written', async () => {
    const got = await ok<GetOutput>(t, 'automations.get', { name: 'procedure.kept' });
    const before = readFileSync(t.configPath, 'utf8');
    // A script broken since the start: the check (on the scripts loaded) passes, the reload
    // (which loads them again) refuses the whole configuration.
    writeFileSync(join(dir(), 'scripts', 'ok.mjs'), "throw new Error('broken on purpose');\n");
    const edit = await callAs(t, 'automations.save', {
      yaml: got.yaml.replace('1', '2'),
      version: got.version,
    });
    expect(edit.reason).toBe('INVALID_ARGUMENTS');
    expect(edit.message).toContain('is as it was');
    expect(edit.message).toContain('broken on purpose');
    expect(readFileSync(t.configPath, 'utf8')).toBe(before);
    expect((await callAs(t, 'procedure.kept')).output).toBe(1);

    const created = await callAs(t, 'automations.save', { yaml: 'procedure.n:\n  - return: 1\n' });
    expect(created.reason).toBe('INVALID_ARGUMENTS');
    expect(existsSync(join(dir(), 'automations.yaml'))).toBe(false);
    expect((await callAs(t, 'procedure.n')).reason).toBeUndefined();
    expect((await callAs(t, 'procedure.n')).code).toBe('NOT_FOUND');
  });
});

describe('previous versions', () => {
  it('keeps the newest 20 copies of each file, oldest removed first', () => {
    const history = join(dir(), 'data', 'automations-history');
    for (let i = 0; i < KEPT_VERSIONS + 3; i++) {
      writeFileSync(t.configPath, `# version ${i}\n`);
      keepPrevious(t.configPath, history);
    }
    const kept = previousVersions(t.configPath, history);
    expect(kept).toHaveLength(KEPT_VERSIONS);
    expect(readFileSync(kept[0]!, 'utf8')).toBe('# version 3\n');
    expect(readFileSync(kept.at(-1)!, 'utf8')).toBe(`# version ${KEPT_VERSIONS + 2}\n`);
  });
});
