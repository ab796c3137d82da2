import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAllow, planCommand, splitSimpleCommand } from '../../../src/plugins/shell/allow.ts';
import { confine } from '../../../src/plugins/shell/confine.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from './helpers.ts';

describe('simple commands and patterns', () => {
  it('splits quotes and escapes as /bin/sh does, and refuses what sh would interpret', () => {
    expect(splitSimpleCommand(`echo 'a b' "c d" e\\ f ''`)).toEqual({
      argv: ['echo', 'a b', 'c d', 'e f', ''],
    });
    for (const [cmd, problem] of [
      ['ls; id', ';'],
      ['ls | wc', '|'],
      ['echo $HOME', '$'],
      ['echo `id`', '`'],
      ['cat > x', '>'],
      ['ls *.txt', '*'],
      ['cat ~/x', '~'],
      ['echo "$HOME"', '"$" inside double quotes'],
      ['FOO=1 env', 'assignment'],
      ["echo 'open", 'unclosed single quote'],
    ] as const) {
      const split = splitSimpleCommand(cmd);
      expect(split, cmd).toHaveProperty('problem');
      expect((split as { problem: string }).problem).toContain(problem);
    }
  });

  it('matches patterns word by word: * within one argument (not /), a last * for any further arguments', () => {
    const allow = compileAllow([
      'uptime',
      'systemctl status *',
      'cat /var/log/*.log',
      "echo 'a b'",
    ]);
    expect(allow.permits(['uptime'])).toBe(true);
    expect(allow.permits(['uptime', '-p'])).toBe(false);
    expect(allow.permits(['systemctl', 'status'])).toBe(true);
    expect(allow.permits(['systemctl', 'status', 'nginx', '--no-pager'])).toBe(true);
    expect(allow.permits(['systemctl', 'restart', 'nginx'])).toBe(false);
    expect(allow.permits(['cat', '/var/log/syslog.log'])).toBe(true);
    expect(allow.permits(['cat', '/var/log/../../etc/shadow.log'])).toBe(false);
    expect(allow.permits(['cat', '/etc/passwd'])).toBe(false);
    expect(allow.permits(['echo', 'a b'])).toBe(true);
    expect(allow.permits(['echo', 'a', 'b'])).toBe(false);
  });

  it('never lets a wildcard make a "." or ".." path segment', () => {
    const allow = compileAllow(['ls /srv/*', 'cat /srv/**', 'stat /srv/?', 'git -C * status']);
    expect(allow.permits(['ls', '/srv/data'])).toBe(true);
    expect(allow.permits(['ls', '/srv/..'])).toBe(false);
    expect(allow.permits(['ls', '/srv/.'])).toBe(false);
    expect(allow.permits(['ls', '/srv/..x'])).toBe(true);
    expect(allow.permits(['cat', '/srv/a/b.txt'])).toBe(true);
    expect(allow.permits(['cat', '/srv/a/../../etc/shadow'])).toBe(false);
    expect(allow.permits(['cat', '/srv/x/../..'])).toBe(false);
    expect(allow.permits(['cat', '/srv/./a'])).toBe(false);
    expect(allow.permits(['stat', '/srv/.'])).toBe(false);
    expect(allow.permits(['git', '-C', '..', 'status'])).toBe(false);
    expect(allow.permits(['git', '-C', 'repo', 'status'])).toBe(true);
    // Dot segments the pattern writes out are its author's: they still match, and no more.
    const literal = compileAllow(['cat ../logs/*', 'ls .']);
    expect(literal.permits(['cat', '../logs/app.log'])).toBe(true);
    expect(literal.permits(['cat', '../logs/..'])).toBe(false);
    expect(literal.permits(['ls', '.'])).toBe(true);
  });

  it('runs a string through the shell only without an allow-list', () => {
    expect(planCommand('echo $HOME', undefined)).toMatchObject({
      file: '/bin/sh',
      args: ['-c', 'echo $HOME'],
    });
    expect(planCommand(`echo 'x y'`, compileAllow(['echo *']))).toMatchObject({
      file: 'echo',
      args: ['x y'],
    });
  });
});

describe('shell.allow', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await makeApp("shell:\n  allow: ['echo *', 'printf *', uptime]\n  allow_env: [LANG]\n");
  });
  afterAll(() => t.close());

  it('runs allowed commands, as strings or lists', async () => {
    expect((await call(t, 'shell.exec', { cmd: `echo 'a;b' c` })).output).toBe('a;b c\n');
    expect((await call(t, 'shell.exec', { cmd: ['printf', '%s', '$(id)'] })).output).toBe('$(id)');
    expect((await call(t, 'shell.exec', { cmd: 'uptime' })).errors).toEqual([]);
  });

  it('refuses other commands, and strings that chain or expand, naming the fix', async () => {
    const marker = join(t.dir, 'chained');
    const chained = await call(t, 'shell.exec', { cmd: `echo hi; touch ${marker}` });
    expect(chained.result.error?.details).toMatchObject({ reason: 'FORBIDDEN' });
    expect(chained.errors[0]).toMatch(
      /has the shell character ";": quote the argument, or pass the command as a list/,
    );
    expect(existsSync(marker)).toBe(false);
    const other = await call(t, 'shell.exec', { cmd: ['touch', marker] });
    expect(other.errors[0]).toMatch(
      /\["touch",.*\] is not allowed by shell\.allow \("echo \*", "printf \*", "uptime"\): add a pattern/,
    );
    expect(existsSync(marker)).toBe(false);
    expect((await call(t, 'shell.exec', { cmd: 'echo $HOME' })).errors[0]).toMatch(/"\$"/);
    expect((await call(t, 'shell.exec', { cmd: 'uptime -p' })).errors[0]).toMatch(/not allowed/);
  });

  // A caller's env must not pick the program an allowed name runs, nor load code into it.
  it('refuses env entries that change what runs, naming the variable and why', async () => {
    const evil = join(t.dir, 'evil');
    const marker = join(t.dir, 'pwned');
    mkdirSync(evil, { recursive: true });
    writeFileSync(join(evil, 'uptime'), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(join(evil, 'uptime'), 0o755);
    for (const cmd of ['uptime', ['uptime']]) {
      const res = await call(t, 'shell.exec', { cmd, env: { PATH: evil } });
      expect(res.result.error?.details).toMatchObject({ reason: 'INVALID_ARGUMENTS' });
      expect(res.errors[0]).toMatch(
        /with shell\.allow set, "env" cannot set "PATH": it chooses which program a command name runs.*Leave it out/,
      );
    }
    for (const name of [
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'DYLD_INSERT_LIBRARIES',
      'BASH_ENV',
      'ENV',
    ])
      expect(
        (await call(t, 'shell.exec', { cmd: 'uptime', env: { [name]: join(evil, 'x') } }))
          .errors[0],
        name,
      ).toMatch(new RegExp(`cannot set "${name}": `));
    // A name with "=" would reach the program as PATH / LD_PRELOAD, past the check on names.
    const smuggled = await call(t, 'shell.exec', { cmd: 'uptime', env: { [`PATH=${evil}:`]: '' } });
    expect(smuggled.errors[0]).toMatch(
      /variable name "PATH=.*", and a name must be .* without "="/,
    );
    expect(existsSync(marker)).toBe(false);
    // Variables in shell.allow_env pass.
    expect((await call(t, 'shell.exec', { cmd: 'uptime', env: { LANG: 'C' } })).errors).toEqual([]);
  });

  it("resolves an allowed program with the service's PATH, keeping its name in argv[0]", () => {
    const plan = confine(planCommand('uptime', compileAllow(['uptime'])));
    expect(plan.file).toMatch(/^\/.*\/uptime$/);
    expect(process.env.PATH!.split(':')).toContain(dirname(plan.file));
    expect(plan.argv0).toBe('uptime');
    // A program written as a path is what the pattern matched: kept as is.
    expect(confine(planCommand(['/bin/echo', 'x'], compileAllow(['/bin/echo *']))).file).toBe(
      '/bin/echo',
    );
    expect(() => confine(planCommand('pipit-no-such-program', compileAllow(['pipit-*'])))).toThrow(
      /program "pipit-no-such-program" not found in the service's PATH \(.*\): install it/,
    );
  });
});
