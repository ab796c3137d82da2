// Arguments of the file and shell plugins: hostile paths (`..`, absolute, very long, NUL bytes,
// links, names that look like options), huge and odd contents, refused modes (setuid), hostile
// command strings, environment maps with dangerous names and huge timeouts.
//
// The server under test confines them (harness/server.ts): file.roots is a directory of its own
// temporary workdir, HOME is inside that workdir, and shell.allow lets only `true`, `echo` and
// `printf` run. The generators stay harmless even if a check were wrong: a destructive action
// (delete, move, write, chmod...) is only given paths that resolve inside the child's temporary
// workdir (at most one `..` above the root), and contents that add up to little on disk.
import fc from 'fast-check';
import { shortText, value } from './values.ts';

/** The file plugin's actions. */
export const FILE_ACTIONS = [
  'file.read',
  'file.stat',
  'file.exists',
  'file.getsize',
  'file.list',
  'file.write',
  'file.append',
  'file.touch',
  'file.chmod',
  'file.mkdir',
  'file.delete',
  'file.unlink',
  'file.rmdir',
  'file.copy',
  'file.move',
  'file.rename',
  'file.link',
] as const;

/** The shell plugin's actions. */
export const SHELL_ACTIONS = ['shell.exec', 'shell.kill', 'shell.jobs'] as const;

/** Names inside the root that the actions share, so that they meet each other's files. */
const NAMES = ['a', 'b.txt', 'dir', 'dir/c', 'link', 'dir/sub/d', '.hidden', '-rf', '--help'];

/** A path that stays inside the child's workdir whatever the checks decide. */
const confinedPath = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '.',
      './',
      '..',
      '../data',
      'dir/..',
      'dir/../..',
      'dir/./c',
      'a/',
      'a//b',
      'dir\u0000/c',
      'a\u0000',
      'a\n',
      ' a',
      '~',
      '~/',
      '~/x',
      '~other/x',
      '*',
      'dir/*',
      '?',
      '%2e%2e',
      'lînk',
      'a'.repeat(255),
      'a'.repeat(256),
      `${'d/'.repeat(300)}x`,
      'x'.repeat(4097),
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z.]{1,12}$/) },
);

/** Paths that only reading actions get: outside every root, devices, the service's own files. */
const readPath = fc.oneof(
  { weight: 4, arbitrary: confinedPath },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '/',
      '/etc/passwd',
      '/etc/shadow',
      '/proc/self/environ',
      '/proc/self/mem',
      '/dev/zero',
      '/dev/urandom',
      '/dev/stdin',
      '../../../../../../etc/passwd',
      '../data/pipit.db',
      '../data/jwt.key',
      '../config.yaml',
      '/tmp',
      '~root/.ssh/id_rsa',
    ),
  },
  { weight: 1, arbitrary: shortText },
  { weight: 1, arbitrary: value },
);

/** Modes: fine, odd, refused (setuid, setgid), not modes at all. */
const mode = fc.oneof(
  fc.constantFrom('0644', '0755', '644', '0o600', '1777', 0o644, 0o1777, 0, 0o7777),
  fc.constantFrom('4755', '2755', '6777', 0o4755, 0o2755, '04755', '0o4755'),
  fc.constantFrom('999', '0x1ff', '-1', '', 'rwxr-xr-x', 1e9, -1, 0.5, 0o10000, null),
  value,
);

/** Contents: text, binary as base64 (valid or not), long (kept small on disk: writes overwrite). */
const content = fc.oneof(
  { weight: 4, arbitrary: shortText },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 10_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  },
  { weight: 1, arbitrary: fc.constantFrom('AAEC/w==', '!!!not base64', '=', '\u0000\u0001') },
  { weight: 1, arbitrary: value },
);

const flag = fc.oneof({ weight: 6, arbitrary: fc.boolean() }, { weight: 1, arbitrary: value });

/** An action of the file plugin with its arguments. */
export const fileCall: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(
    fc.constantFrom('file.read', 'file.stat', 'file.exists', 'file.getsize', 'file.list'),
    fc.record(
      {
        file: readPath,
        path: readPath,
        encoding: fc.oneof(fc.constantFrom('utf-8', 'base64', 'latin1'), value),
        offset: fc.oneof(fc.integer({ min: -5, max: 1e6 }), value),
        size: fc.oneof(fc.integer({ min: -5, max: 1e9 }), value),
        glob: fc.oneof(fc.constantFrom('*', '**/*', '../*', '/etc/*', '[', '{a,b}'), shortText),
        recursive: flag,
        follow: flag,
      },
      { requiredKeys: [] },
    ),
  ),
  fc.tuple(
    fc.constant('file.write'),
    fc.record(
      {
        file: confinedPath,
        content,
        encoding: fc.constantFrom('utf-8', 'base64'),
        mode,
        parents: flag,
      },
      { requiredKeys: [] },
    ),
  ),
  fc.tuple(
    fc.constant('file.append'),
    fc.record({ file: confinedPath, content: shortText, mode }, { requiredKeys: [] }),
  ),
  fc.tuple(
    fc.constantFrom('file.touch', 'file.chmod', 'file.mkdir'),
    fc.record(
      { file: confinedPath, directory: confinedPath, mode, parents: flag, exist_ok: flag },
      { requiredKeys: [] },
    ),
  ),
  fc.tuple(
    fc.constantFrom('file.delete', 'file.unlink', 'file.rmdir'),
    fc.record(
      { file: confinedPath, directory: confinedPath, recursive: flag },
      { requiredKeys: [] },
    ),
  ),
  fc.tuple(
    fc.constantFrom('file.copy', 'file.move', 'file.rename', 'file.link'),
    fc.record(
      {
        // A recursive copy of the root into itself is refused, or would double the files on
        // every call: sources are names only.
        source: fc.constantFrom(...NAMES),
        file: fc.constantFrom(...NAMES, '/etc/passwd', '../config.yaml'),
        target: confinedPath,
        name: confinedPath,
        overwrite: flag,
        recursive: flag,
        symbolic: flag,
      },
      { requiredKeys: [] },
    ),
  ),
);

/** Command strings and argument lists: shell syntax, options, NUL bytes, the allowed ones. */
const cmd = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('true', 'echo hi', 'printf %s x', "echo 'a b'") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'rm -rf ~',
      'echo hi; rm -rf ~',
      'echo $(id)',
      'echo `id`',
      'echo hi > out.txt',
      'echo hi | sh',
      'true && id',
      'echo *',
      'echo ~',
      'X=1 echo',
      'sleep 100000',
      'yes',
      'cat /dev/zero',
      'echo\u0000hi',
      'echo "$HOME"',
      '/bin/echo hi',
      '../bin/echo',
      ' ',
      '#',
      'echo ' + 'a'.repeat(100_000),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ['echo', 'hi'],
      ['true'],
      ['printf', '%s\n', 'a', 'b'],
      ['sh', '-c', 'id'],
      ['echo', '$(id)'],
      ['rm', '-rf', 'dir'],
      ['echo\u0000', 'x'],
      [],
      [''],
    ),
  },
  { weight: 1, arbitrary: shortText },
  { weight: 1, arbitrary: value },
);

/** Environment maps: dangerous names (refused under shell.allow), odd names and values. */
const env = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      'PATH',
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'NODE_OPTIONS',
      'BASH_ENV',
      'ENV',
      'IFS',
      'GIT_CONFIG_COUNT',
      'HOME',
      'LANG',
      'A=B',
      '',
      '1X',
      'X\u0000',
      '__proto__',
    ),
    fc.oneof(shortText, fc.constantFrom('/tmp/evil.so', '--require /tmp/x.js')),
    { maxKeys: 3 },
  ),
  value,
);

/** An action of the shell plugin with its arguments. */
export const shellCall: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(
    fc.constant('shell.exec'),
    fc.record(
      {
        cmd,
        env,
        cwd: fc.oneof(fc.constantFrom('/', '/nonexistent', '..', '.', '~'), shortText, value),
        timeout: fc.oneof(
          fc.constantFrom(0, 0.001, 5, 604_800, 604_801, 1e308, -1, Infinity, NaN, '5'),
          value,
        ),
        ignore_errors: flag,
        stream: flag,
        background: flag,
      },
      { requiredKeys: ['cmd'] },
    ),
  ),
  fc.tuple(
    fc.constant('shell.kill'),
    fc.record({ id: fc.oneof(shortText, value) }, { requiredKeys: [] }),
  ),
  fc.tuple(fc.constant('shell.jobs'), fc.constant({})),
);
