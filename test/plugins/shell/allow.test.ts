import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAllow, planCommand, splitSimpleCommand } from '../../../src/plugins/shell/allow.ts';
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
    t = await makeApp("shell:\n  allow: ['echo *', 'printf *', uptime]\n");
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
});
