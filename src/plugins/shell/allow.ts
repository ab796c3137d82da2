import { PipitError } from '../api/index.ts';

/** Characters a simple command must not hold unquoted: they would make `/bin/sh` do more than run one program. */
const SHELL_SPECIAL = new Set([
  ';',
  '&',
  '|',
  '<',
  '>',
  '(',
  ')',
  '$',
  '`',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '~',
  '#',
  '!',
  '\n',
  '\r',
]);

/** A command string split into arguments, or why it is not a simple command. */
export type SplitCommand = { argv: string[] } | { problem: string };

/**
 * Splits a command string the way `/bin/sh` would, when it is a simple command: words separated by
 * blanks, 'single' and "double" quotes, backslash escapes. Anything that would make the shell do more
 * than run one program with literal arguments (`;`, pipes, redirections, `$`, backquotes, globs, `~`,
 * comments, an assignment before the command, `$` or backquotes in double quotes) is refused.
 *
 * @example
 * splitSimpleCommand(`systemctl status 'my unit'`); // { argv: ['systemctl', 'status', 'my unit'] }
 * splitSimpleCommand('ls; rm -rf ~'); // { problem: 'the shell character ";"' }
 */
export function splitSimpleCommand(cmd: string): SplitCommand {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i]!;
    if (c === ' ' || c === '\t') {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end < 0) return { problem: 'an unclosed single quote' };
      word += cmd.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < cmd.length && cmd[j] !== '"'; j++) {
        const d = cmd[j]!;
        if (d === '$' || d === '`' || d === '\\') return { problem: `"${d}" inside double quotes` };
        word += d;
      }
      if (j >= cmd.length) return { problem: 'an unclosed double quote' };
      i = j;
      inWord = true;
    } else if (c === '\\') {
      const next = cmd[i + 1];
      if (next === undefined || next === '\n') return { problem: 'a trailing backslash' };
      word += next;
      i++;
      inWord = true;
    } else if (SHELL_SPECIAL.has(c)) {
      return { problem: `the shell character ${JSON.stringify(c)}` };
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) argv.push(word);
  if (!argv.length) return { problem: 'no command' };
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]!))
    return { problem: 'a variable assignment before the command (pass it in "env")' };
  return { argv };
}

// Splits a pattern into words: blanks separate, quotes group, nothing else is special.
function patternWords(pattern: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      const end = pattern.indexOf(c, i + 1);
      const stop = end < 0 ? pattern.length : end;
      word = (word ?? '') + pattern.slice(i + 1, stop);
      i = stop;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

// One pattern word as a regex over one argument: `**` any characters, `*` any but "/", `?` one but "/".
function wordRegex(word: string): RegExp {
  let source = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '*' && word[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

// Counts the "." and ".." segments of a path-like text.
function dotSegments(text: string): { dot: number; dotdot: number } {
  const segments = text.split('/');
  return {
    dot: segments.filter((s) => s === '.').length,
    dotdot: segments.filter((s) => s === '..').length,
  };
}

/**
 * One pattern word: its regex, and a check that its wildcards made no "." or ".." segment
 * (`/srv/*` must not allow `/srv/..`, nor `/srv/**` allow `/srv/a/../../etc/passwd`). The regex
 * matched, so the word's literal "." and ".." segments are in the argument: any more came from a
 * wildcard.
 */
function compileWord(word: string): (arg: string) => boolean {
  const re = wordRegex(word);
  if (!/[*?]/.test(word)) return (arg) => re.test(arg);
  const literal = dotSegments(word);
  return (arg) => {
    if (!re.test(arg)) return false;
    const seen = dotSegments(arg);
    return seen.dot <= literal.dot && seen.dotdot <= literal.dotdot;
  };
}

/** A compiled `shell.allow` list. */
export interface AllowList {
  /** True when some pattern permits the argument list. */
  permits(argv: readonly string[]): boolean;
  /** The patterns as configured, for messages. */
  readonly patterns: readonly string[];
}

/**
 * Compiles `shell.allow`. A pattern is matched word by word against the command's arguments (program
 * first): in a word, `*` matches any characters but "/", `**` any characters, `?` one character,
 * and none of them makes a path segment that is "." or ".."; a last word that is only `*` matches
 * any further arguments, none included. Words split on blanks, and quotes group (`echo 'a b'` is
 * two words).
 *
 * @example
 * const allow = compileAllow(['uptime', 'systemctl status *', 'cat /var/log/*.log']);
 * allow.permits(['systemctl', 'status', 'nginx']); // true
 * allow.permits(['cat', '/etc/passwd']); // false
 * allow.permits(['cat', '/var/log/../x.log']); // false
 */
export function compileAllow(patterns: readonly string[]): AllowList {
  const compiled = patterns.map((pattern) => {
    const words = patternWords(pattern);
    const rest = words.length > 1 && words[words.length - 1] === '*';
    return { fixed: (rest ? words.slice(0, -1) : words).map(compileWord), rest };
  });
  return {
    patterns,
    permits(argv) {
      return compiled.some(
        ({ fixed, rest }) =>
          (rest ? argv.length >= fixed.length : argv.length === fixed.length) &&
          fixed.every((matches, i) => matches(argv[i]!)),
      );
    },
  };
}

/** How a command is to be started: a program and its arguments. */
export interface CommandPlan {
  file: string;
  /** argv[0] when `file` was resolved to a full path (see confine.ts): the name as written. */
  argv0?: string;
  args: string[];
  /** The command as the caller wrote it, for messages and events. */
  display: string;
}

/**
 * Decides how to run `cmd`: a string through `/bin/sh -c`, a list directly (no shell). With an
 * allow-list, a string must be a simple command (it is then run without a shell, as its argument
 * list) and the arguments must match a pattern; otherwise FORBIDDEN, naming the command and the fix.
 *
 * @example
 * planCommand('echo "$HOME"', undefined); // { file: '/bin/sh', args: ['-c', 'echo "$HOME"'], ... }
 * planCommand(['ls', '-l'], compileAllow(['ls *'])); // { file: 'ls', args: ['-l'], ... }
 */
export function planCommand(cmd: string | string[], allow: AllowList | undefined): CommandPlan {
  const display = typeof cmd === 'string' ? cmd : JSON.stringify(cmd);
  if (!allow) {
    return typeof cmd === 'string'
      ? { file: '/bin/sh', args: ['-c', cmd], display }
      : { file: cmd[0]!, args: cmd.slice(1), display };
  }
  let argv: string[];
  if (typeof cmd === 'string') {
    const split = splitSimpleCommand(cmd);
    if ('problem' in split) {
      throw new PipitError(
        'FORBIDDEN',
        `shell.exec: with shell.allow set, a command string must be one program with literal arguments, and ${JSON.stringify(cmd)} has ${split.problem}: quote the argument, or pass the command as a list such as ["ls", "-l", "/tmp"]`,
      );
    }
    argv = split.argv;
  } else argv = cmd;
  if (!allow.permits(argv)) {
    throw new PipitError(
      'FORBIDDEN',
      `shell.exec: ${display} is not allowed by shell.allow (${allow.patterns.length ? allow.patterns.map((p) => JSON.stringify(p)).join(', ') : 'an empty list'}): add a pattern that matches it to shell.allow in the configuration`,
    );
  }
  return { file: argv[0]!, args: argv.slice(1), display };
}
