import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { createService } from '../../src/app/service.ts';
import { makeApp, registerAndToken, tempDir } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const YAML = `
scripts_dir: ./scripts
procedure.greet(name, punctuation=null):
  - action: utils.echo
    args:
      text: 'Hello, \${name}\${punctuation ?? "!"}'
procedure.count(n):
  - set: {total: 0, i: 0}
  - while \${i < n}:
      - set: {i: '\${i + 1}', total: '\${total + i}'}
  - action: variable.set
    args: {last_total: '\${total}'}
  - return: \${total}
procedure.nested:
  - action: procedure.greet
    args: {name: nested}
  - return: \${output.text}
procedure.fails:
  - action: utils.sleep
    args: {seconds: soon}
  - action: variable.set
    args: {should_not: run}
procedure.tolerant:
  - action: utils.sleep
    args: {seconds: soon}
    ignore_errors: true
  - return: \${errors}
procedure.inject(value):
  - return: '\${value}'
`;

const SCRIPT = `import { procedure, run } from 'pipit';
type Args = { a: number; b: number };
procedure('add', ['a', 'b'], async (args: Record<string, unknown>) => {
  const { a, b } = args as Args;
  const echoed = (await run('utils.echo', { sum: a + b })) as { sum: number };
  return echoed.sum;
});
procedure('boom', () => { throw new Error('script procedure failed on purpose'); });
`;

describe('procedures', () => {
  let t: TestApp;
  let token: string;
  let cleanup: () => void;
  const exec = (action: string, args: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action, args },
    });

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    mkdirSync(join(tmp.dir, 'scripts'));
    writeFileSync(join(tmp.dir, 'scripts', 'math.ts'), SCRIPT);
    t = await makeApp(YAML, { dir: tmp.dir });
    token = await registerAndToken(t.app);
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });

  it('runs a YAML procedure with declared arguments and returns the last output', async () => {
    const res = await exec('procedure.greet', { name: 'Ada' });
    expect(res.statusCode).toBe(200);
    expect(res.json().response).toEqual({ output: { text: 'Hello, Ada!' }, errors: [] });
  });

  it('returns the return: value, not a step response, and leaves the side effects', async () => {
    const res = await exec('procedure.count', { n: 4 });
    expect(res.json().response.output).toBe(10);
    expect(t.service.store.variables.get('last_total')).toBe(10);
  });

  it('refuses a call without a required argument with 400 naming it; defaults fill the others', async () => {
    const res = await exec('procedure.greet', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors[0]).toMatch(
      /^procedure\.greet: missing argument "name" \(declared as procedure\.greet\(name, punctuation\)\)/,
    );
  });

  it('calls procedures from procedures', async () => {
    expect((await exec('procedure.nested')).json().response.output).toBe('Hello, nested!');
  });

  it('stops at a failing step, naming it, and runs nothing after it', async () => {
    const res = await exec('procedure.fails');
    expect(res.statusCode).toBe(200);
    const [msg] = res.json().response.errors as string[];
    expect(msg).toMatch(/step 1/);
    expect(msg).toMatch(/utils\.sleep/);
    expect(msg).toMatch(/"soon"/);
    expect(t.service.store.variables.get('should_not')).toBeUndefined();
  });

  it('goes on past a step with ignore_errors and exposes its errors', async () => {
    const res = await exec('procedure.tolerant');
    expect(res.json().response.errors).toEqual([]);
    expect(res.json().response.output[0]).toMatch(/"seconds"/);
  });

  it('treats argument values as data, never as expressions', async () => {
    const res = await exec('procedure.inject', {
      value: '${constructor.constructor("return process")()}',
    });
    expect(res.json().response.output).toBe('${constructor.constructor("return process")()}');
  });

  it('runs a TypeScript script procedure that calls run() in-process', async () => {
    const res = await exec('procedure.add', { a: 2, b: 3 });
    expect(res.json().response).toEqual({ output: 5, errors: [] });
    const boom = await exec('procedure.boom');
    expect(boom.json().response.errors).toEqual(['script procedure failed on purpose']);
  });

  it('lists procedures with their arguments and sources in inspect', async () => {
    const res = await exec('inspect.get_procedures');
    const list = res.json().response.output as { name: string; params: string[]; source: string }[];
    expect(list.find((p) => p.name === 'procedure.greet')).toMatchObject({
      params: ['name', 'punctuation'],
    });
    expect(list.find((p) => p.name === 'procedure.add')!.source).toMatch(/scripts\/math\.ts$/);
  });

  it('is the same procedure through run() and execute() as through HTTP', async () => {
    expect(
      await t.service.services.run('procedure.greet', { name: 'lib', punctuation: '?' }),
    ).toEqual({ text: 'Hello, lib?' });
  });
});

describe('procedure configuration errors', () => {
  it.each([
    ['procedure.bad(:\n  - action: utils.echo\n', /procedure\.bad\(/],
    ['procedure.x:\n  - if ${1 +}:\n      - action: utils.echo\n', /step 1/],
    ['procedure.y:\n  - acton: utils.echo\n', /step 1/],
  ])('refuses %j at start, naming the file', (yaml, pattern) => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, 'c.yaml'), `workdir: ./data\n${yaml}`);
      const config = loadConfig({ path: join(dir, 'c.yaml'), plugins: builtinPlugins });
      return expect(
        createService(config, { log: createLogger({ level: 'silent' }) }),
      ).rejects.toThrow(pattern);
    } finally {
      cleanup();
    }
  });
});
