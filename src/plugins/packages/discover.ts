import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import semver from 'semver';
import { PipitError } from '../../core/errors.ts';

/** A plugin package found for the config's `plugins:` list, before its code is imported. */
export interface FoundPackage {
  /** As written in `plugins:`. */
  spec: string;
  /** The package's folder (links resolved). */
  dir: string;
  packageName: string;
  version: string;
  /** The plugin's name: its config section and the prefix of its actions. */
  pluginName: string;
  /** The module to import (its default export is the plugin). */
  entry: string;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  exports?: unknown;
  keywords?: unknown;
  peerDependencies?: Record<string, unknown>;
  pipit?: { plugin?: unknown };
}

/**
 * Finds the packages the config's `plugins:` list names, without importing them: a name resolves
 * from the config folder's `node_modules` (and its parents'), then Pipit's own; a path (starting
 * with `.` or `/`) is relative to the config file. Refuses (CONFIG_INVALID) a package that is not
 * there, one whose `peerDependencies.pipit` range leaves out the running version, and two
 * packages (or a package and a built-in plugin) of one name.
 *
 * @example
 * findPackages(['pipit-plugin-hello', './my-plugins/weather'], '/etc/pipit', '0.2.0', ['utils']);
 */
export function findPackages(
  specs: readonly string[],
  configDir: string,
  pipitVersion: string,
  builtinNames: readonly string[],
): FoundPackage[] {
  const found: FoundPackage[] = [];
  const taken = new Map<string, string>(builtinNames.map((n) => [n, 'a plugin Pipit ships']));
  for (const spec of specs) {
    const dir = packageDir(spec, configDir);
    const pkg = readPackageJson(spec, dir);
    const packageName = typeof pkg.name === 'string' ? pkg.name : spec;
    const version = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    const range = pkg.peerDependencies?.pipit;
    if (typeof range === 'string' && !satisfies(pipitVersion, range))
      throw new PipitError(
        'CONFIG_INVALID',
        `plugins: ${packageName}@${version} is made for pipit ${range}, and this is pipit ${pipitVersion}: install a version of ${packageName} whose peerDependencies.pipit includes ${pipitVersion}, or a Pipit in ${range}`,
      );
    const pluginName = declaredName(pkg, packageName);
    const other = taken.get(pluginName);
    if (other)
      throw new PipitError(
        'CONFIG_INVALID',
        `plugins: ${packageName} (${spec}) is a plugin named "${pluginName}", and so is ${other}: remove one of them from "plugins:"`,
      );
    taken.set(pluginName, `${packageName} (${spec})`);
    found.push({ spec, dir, packageName, version, pluginName, entry: entryOf(dir, pkg) });
  }
  return found;
}

/** `pipit.plugin` in package.json, else the package name without `pipit-plugin-` and scope. */
function declaredName(pkg: PackageJson, packageName: string): string {
  if (typeof pkg.pipit?.plugin === 'string' && pkg.pipit.plugin) return pkg.pipit.plugin;
  return packageName.replace(/^@[^/]+\//, '').replace(/^pipit-plugin-/, '');
}

function satisfies(version: string, range: string): boolean {
  // A development build (0.1.0-dev.3) counts as its release for the check.
  return semver.satisfies(version, range, { includePrerelease: true });
}

function packageDir(spec: string, configDir: string): string {
  if (spec.startsWith('.') || isAbsolute(spec)) {
    const dir = resolve(configDir, spec);
    if (!existsSync(join(dir, 'package.json')))
      throw new PipitError(
        'CONFIG_INVALID',
        `plugins: "${spec}" is not a plugin package: ${dir} has no package.json (a path is relative to the config file's folder)`,
      );
    return realpathSync(dir);
  }
  const searched: string[] = [];
  for (let at = configDir; ; at = dirname(at)) {
    searched.push(join(at, 'node_modules'));
    if (dirname(at) === at) break;
  }
  // Then where Pipit's own dependencies are (a package installed beside Pipit).
  searched.push(...(createRequire(import.meta.url).resolve.paths(spec) ?? []));
  for (const modules of searched) {
    const dir = join(modules, spec);
    if (existsSync(join(dir, 'package.json'))) return realpathSync(dir);
  }
  throw new PipitError(
    'CONFIG_INVALID',
    `plugins: no package "${spec}" in ${join(configDir, 'node_modules')} or beside Pipit: run "npm install ${spec}" in ${configDir}, or write a path such as ./plugins/${spec}`,
  );
}

function readPackageJson(spec: string, dir: string): PackageJson {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch (err) {
    throw new PipitError(
      'CONFIG_INVALID',
      `plugins: "${spec}": ${join(dir, 'package.json')} is not valid JSON: ${(err as Error).message}`,
      { cause: err },
    );
  }
}

/** The module `import` of the package would load: `exports["."]` (import/node/default), `main`. */
function entryOf(dir: string, pkg: PackageJson): string {
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>;
      for (const key of ['import', 'node', 'default']) {
        const hit = pick(conditions[key]);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  const exported =
    pkg.exports && typeof pkg.exports === 'object' && '.' in pkg.exports
      ? pick((pkg.exports as Record<string, unknown>)['.'])
      : pick(pkg.exports);
  const file = join(dir, exported ?? (typeof pkg.main === 'string' ? pkg.main : 'index.js'));
  return existsSync(file) && statSync(file).isDirectory() ? join(file, 'index.js') : file;
}
