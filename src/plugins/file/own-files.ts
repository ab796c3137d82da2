import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { LoadedConfig } from '../../config/load.ts';
import { PipitError } from '../../core/errors.ts';
import type { PipitFiles } from '../../core/services.ts';

/**
 * Expands a leading `~` to the service user's home directory.
 *
 * @example
 * expandHome('~/notes'); // '/home/pi/notes'
 */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  return path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

/**
 * True when `path` is `dir` or under it (both absolute and normalised).
 *
 * @example
 * inside('/srv/a/b', '/srv/a'); // true
 */
export function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

// realpath() of the deepest part that exists, plus the rest: the workdir or scripts_dir may not
// exist yet, and the comparison must see through the links on the way to them.
function realish(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realish(parent), basename(path));
  }
}

/**
 * Where a configuration keeps Pipit's own files: the file and those it includes (each file a
 * setting came from), their directory, the workdir and `scripts_dir`.
 *
 * @example
 * pipitFilesOf(config).workdir; // '/var/lib/pipit'
 */
export function pipitFilesOf(config: LoadedConfig): PipitFiles {
  const sources = [
    config.path,
    ...[...config.plugins.values()].map((p) => p.source),
    ...[...config.procedures, ...config.hooks, ...config.crons].map((s) => s.source),
  ];
  return {
    configFiles: [...new Set(sources.filter((s): s is string => !!s && s.startsWith('/')))],
    configDir: config.dir,
    workdir: config.workdir,
    scriptsDir: config.scriptsDir,
  };
}

/** The real paths of a {@link PipitFiles}, computed once per value. */
interface RealFiles {
  configFiles: string[];
  places: { label: string; dir: string }[];
  workdir: string;
  scriptsDir: string;
}

function realFiles(files: PipitFiles): RealFiles {
  const workdir = realish(files.workdir);
  const scriptsDir = realish(files.scriptsDir);
  return {
    configFiles: files.configFiles.map(realish),
    workdir,
    scriptsDir,
    places: [
      { label: 'scripts_dir', dir: scriptsDir },
      { label: 'the workdir', dir: workdir },
      { label: "the configuration's directory", dir: realish(files.configDir) },
    ],
  };
}

/**
 * Refuses (CONFIG_INVALID) a root that holds, or is inside, `scripts_dir`, the workdir or the
 * configuration's directory: through it, `file.write` of a script followed by a reload would run
 * code in the service (even with `shell` off), and `file.read` would return `jwt.key`.
 *
 * @example
 * refuseRootsOverPipit(['/srv/pipit'], pipitFilesOf(config));
 */
export function refuseRootsOverPipit(
  roots: readonly string[] | undefined,
  files: PipitFiles,
): void {
  if (!roots) return;
  const real = realFiles(files);
  for (const configured of roots) {
    const root = realish(resolve(expandHome(configured)));
    for (const { label, dir } of real.places) {
      if (!inside(dir, root) && !inside(root, dir)) continue;
      const how = root === dir ? 'is' : inside(dir, root) ? 'holds' : 'is inside';
      throw new PipitError(
        'CONFIG_INVALID',
        `file.roots: ${configured} ${how} ${label} (${dir}): through it the file plugin could change Pipit's own files (a script, the configuration) and so run code in the service, or read its keys: use a directory apart from ${dir} as a root, or move ${label} elsewhere`,
        { details: { root: configured, overlaps: dir } },
      );
    }
  }
}

/**
 * Refuses file roots that overlap Pipit's files in a configuration about to be used: its own
 * `file.roots` and, at a reload, those of the running configuration (a new `scripts_dir` takes
 * effect at once, while the running roots stay until a restart).
 *
 * @example
 * refuseFileRootsOverPipit(next, [service.config]);
 */
export function refuseFileRootsOverPipit(config: LoadedConfig, also: LoadedConfig[] = []): void {
  const files = pipitFilesOf(config);
  for (const c of [config, ...also]) {
    const section = c.plugins.get('file')?.config as { roots?: string[] } | undefined;
    refuseRootsOverPipit(section?.roots, files);
  }
}

/** What an action does with a path, for {@link OwnFiles.check}. */
export type Intent = 'read' | 'change' | 'look';

/**
 * Keeps the file plugin off Pipit's own files whatever `file.roots` say (also with none): nothing
 * in `scripts_dir` or the workdir, nor a configuration file, is written, moved, removed or
 * chmod-ed, and nothing in the workdir (`jwt.key`, the database) is read.
 *
 * @example
 * new OwnFiles(() => services.pipitFiles?.()).check({ action: 'file.write', param: 'file' }, p, 'change');
 */
export class OwnFiles {
  private readonly source: () => PipitFiles | undefined;
  private cached: { key: string; real: RealFiles } | undefined;

  constructor(source: () => PipitFiles | undefined) {
    this.source = source;
  }

  private real(): RealFiles | undefined {
    const files = this.source();
    if (!files) return undefined;
    const key = JSON.stringify(files);
    if (this.cached?.key !== key) this.cached = { key, real: realFiles(files) };
    return this.cached.real;
  }

  /** Refuses (FORBIDDEN) `intent` on the resolved `path` when it is one of Pipit's own files. */
  check(use: { action: string; param: string }, path: string, intent: Intent): void {
    const real = this.real();
    if (!real || intent === 'look') return;
    const refuse = (what: string, why: string): never => {
      throw new PipitError(
        'FORBIDDEN',
        `${use.action}: "${use.param}" ${path} is ${what}: ${why}; use a path elsewhere`,
        { details: { path } },
      );
    };
    if (inside(path, real.workdir)) {
      refuse(
        `in Pipit's workdir (${real.workdir})`,
        "it holds the service's keys and database, which the file plugin never reads or changes",
      );
    }
    if (intent === 'read') return;
    if (inside(path, real.scriptsDir)) {
      refuse(
        `in scripts_dir (${real.scriptsDir})`,
        'a script written there would run in the service at the next reload',
      );
    }
    if (real.configFiles.includes(path)) {
      refuse(
        "one of Pipit's configuration files",
        'the file plugin never changes the configuration',
      );
    }
  }

  /**
   * Refuses (FORBIDDEN) to move or remove a directory that holds Pipit's own files.
   *
   * @example
   * own.refuseHolder('file.delete', '"file"', '/var/lib', 'removed');
   */
  refuseHolder(action: string, label: string, path: string, verb: string): void {
    const real = this.real();
    if (!real) return;
    const held = [real.workdir, real.scriptsDir, ...real.configFiles].find(
      (p) => p !== path && inside(p, path),
    );
    if (held === undefined) return;
    throw new PipitError(
      'FORBIDDEN',
      `${action}: ${label} ${path} holds ${held}, one of Pipit's own files, and cannot be ${verb}: ${verb === 'moved' ? 'move' : 'remove'} what is in it instead`,
      { details: { path, held } },
    );
  }
}
