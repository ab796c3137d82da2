import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import type { PluginDef } from '../core/action.ts';
import { PipitError } from '../core/errors.ts';
import type { LogFormat } from '../core/logger.ts';
import { didYouMean } from '../lib/suggest.ts';
import { preview } from '../core/validate.ts';
import { defaultWorkdir, resolvePath, userConfigPath } from './paths.ts';
import { adaptPlatypushConfig } from './platypush-compat.ts';
import type { ClusterSettings, RedisConfig } from './redis.ts';
import { CoreConfig, SECTION_PREFIXES } from './schema.ts';
import type { HttpConfig } from './schema.ts';
import { readYamlFile } from './yaml.ts';
import { parseOrThrow } from './parse-section.ts';

export { parsePluginSection } from './parse-section.ts';

/** A user section (procedure, hook or cron) with the file it came from. */
export interface UserSection {
  key: string;
  value: unknown;
  source: string;
}

/** The configuration after loading, merging includes and validating. */
export interface LoadedConfig {
  /** The main file, or null when running on the embedded defaults. */
  path: string | null;
  dir: string;
  deviceId: string;
  workdir: string;
  scriptsDir: string;
  http: HttpConfig | null;
  redisUrl: string | null;
  /**
   * The cluster this instance joins (`redis` with its `secret`); null without one, and for
   * Platypush's `redis: {host, port}` form, which carries no secret (the instance runs alone).
   */
  redis: ClusterSettings | null;
  logLevel: string;
  /** `event.namespace`: the kind names clients receive. */
  eventNamespace: 'pipit' | 'platypush';
  /** `logging.format`: readable lines, JSON lines, or readable on a terminal only. */
  logFormat: LogFormat;
  /** The plugin packages `plugins:` lists, as found by `loadConfig`'s `packages` (stand-ins). */
  packagePlugins: readonly PluginDef[];
  /** Enabled plugins by canonical name, with their parsed config. */
  plugins: Map<string, { config: unknown; source: string }>;
  procedures: UserSection[];
  hooks: UserSection[];
  crons: UserSection[];
  /** What was accepted but ignored or adapted (Platypush keys, unknown plugins), one line each. */
  warnings: string[];
}

interface RawEntry {
  value: unknown;
  source: string;
}

function readWithIncludes(
  path: string,
  env: NodeJS.ProcessEnv,
  seen: string[],
  out: Map<string, RawEntry>,
  unset?: string,
  files?: ReadonlyMap<string, string>,
): void {
  if (seen.includes(path)) {
    throw new PipitError(
      'CONFIG_INVALID',
      `${path}: included in a loop (${[...seen, path].join(' -> ')})`,
    );
  }
  const data = readYamlFile(path, env, unset, files?.get(path));
  const include = data.include;
  if (include !== undefined) {
    const list = typeof include === 'string' ? [include] : include;
    if (!Array.isArray(list) || list.some((i) => typeof i !== 'string')) {
      throw new PipitError(
        'CONFIG_INVALID',
        `${path}: include: expected a file name or a list of file names; got ${preview(include)}`,
      );
    }
    for (const file of list as string[]) {
      const target = resolvePath(file, dirname(path));
      if (!files?.has(target) && !existsSync(target)) {
        throw new PipitError('CONFIG_INVALID', `${path}: include: file ${target} does not exist`);
      }
      readWithIncludes(target, env, [...seen, path], out, unset, files);
    }
  }
  for (const [key, value] of Object.entries(data)) {
    if (key !== 'include') out.set(key, { value, source: path });
  }
}

/**
 * The file of automations beside a main configuration file: loaded with it without an `include:`,
 * and where `automations.save` writes new automations.
 *
 * @example
 * automationsFile('/etc/pipit/config.yaml'); // '/etc/pipit/automations.yaml'
 */
export function automationsFile(configPath: string): string {
  return join(dirname(configPath), 'automations.yaml');
}

const CORE_KEYS = new Set(Object.keys(CoreConfig.shape));

// A `redis: {url}` section without a secret would let anyone who can write to Redis run actions:
// refused. Platypush's connection forms carry none and mean no cluster.
function clusterSettings(
  redis: RedisConfig | undefined,
  pipitForm: boolean,
  source: string,
): ClusterSettings | null {
  if (!redis) return null;
  if (redis.secret !== undefined) return { ...redis, secret: redis.secret };
  if (!pipitForm) return null;
  throw new PipitError(
    'CONFIG_INVALID',
    `${source}: redis.secret: required with redis.url: instances sign every message with it, and refuse unsigned ones (set the same value on every instance, e.g. "secret: !env PIPIT_CLUSTER_SECRET" with a value from "openssl rand -hex 32")`,
  );
}

/**
 * Loads the configuration: the file (or embedded defaults when `path` is null), its includes,
 * core keys, plugin sections (validated by each plugin's schema), procedures, hooks and crons.
 * Any mistake throws CONFIG_INVALID naming the file, the key path, the value and what was expected.
 *
 * @example
 * const config = loadConfig({ path: '/etc/pipit/config.yaml', plugins: builtinPlugins });
 */
export function loadConfig(opts: {
  path: string | null;
  plugins: readonly PluginDef[];
  env?: NodeJS.ProcessEnv;
  /** The value of an `!env` variable that is unset (instead of an error): see readYamlFile. */
  unsetEnv?: string;
  /** Files' texts to read instead of what is on disk (a change checked before it is written). */
  files?: ReadonlyMap<string, string>;
  /**
   * Finds the plugin packages the `plugins:` key lists (src/plugins/packages/), as stand-ins the
   * way `plugins` may be: their sections are then known keys. Without it `plugins:` is ignored.
   */
  packages?: (specs: readonly string[], configDir: string) => readonly PluginDef[];
}): LoadedConfig {
  const env = opts.env ?? process.env;
  const path = opts.path ? resolve(opts.path) : null;
  const raw = new Map<string, RawEntry>();
  if (path) {
    readWithIncludes(path, env, [], raw, opts.unsetEnv, opts.files);
    // automations.yaml beside the main file (where automations.save writes new automations) is
    // read whether or not the file includes it.
    const automations = automationsFile(path);
    const included = [...raw.values()].some((e) => e.source === automations);
    if (
      automations !== path &&
      !included &&
      (opts.files?.has(automations) || existsSync(automations))
    )
      readWithIncludes(automations, env, [path], raw, opts.unsetEnv, opts.files);
  }
  // Without a file, relative paths (the default scripts_dir) are under the user's config folder:
  // the working directory may be anything, such as a checkout whose scripts/ are not user scripts.
  const dir = dirname(path ?? userConfigPath(env));
  const mainSource = path ?? '(embedded defaults)';

  const specs = raw.get('plugins');
  if (specs)
    parseOrThrow(CoreConfig.pick({ plugins: true }), { plugins: specs.value }, specs.source, '');
  const packagePlugins = opts.packages?.(specs ? (specs.value as string[]) : [], dir) ?? [];
  const available = [...opts.plugins, ...packagePlugins];
  const byName = new Map<string, PluginDef>();
  for (const p of available) {
    byName.set(p.name, p);
    for (const alias of p.aliases ?? []) byName.set(alias, p);
  }

  // Pipit's own form (`redis: {url}`) asks for a cluster; Platypush's host/port forms, rewritten
  // below, only name the Redis Platypush needed for its own bus.
  const redisRaw = raw.get('redis')?.value;
  const redisPipitForm =
    redisRaw !== null && typeof redisRaw === 'object' && Object.hasOwn(redisRaw, 'url');
  const warnings = adaptPlatypushConfig(raw, {
    coreKeys: CORE_KEYS,
    plugins: [...byName.keys()],
    isUserSection: (key) => SECTION_PREFIXES.some((prefix) => key.startsWith(prefix)),
  });

  const core: Record<string, unknown> = {};
  const pluginSections = new Map<string, RawEntry>();
  const sections = {
    procedure: [] as UserSection[],
    hook: [] as UserSection[],
    cron: [] as UserSection[],
  };
  for (const [key, entry] of raw) {
    if (CORE_KEYS.has(key)) core[key] = entry.value;
    else if (key.startsWith(SECTION_PREFIXES[0])) sections.procedure.push({ key, ...entry });
    else if (key.startsWith(SECTION_PREFIXES[1])) sections.hook.push({ key, ...entry });
    else if (key.startsWith(SECTION_PREFIXES[2])) sections.cron.push({ key, ...entry });
    else if (byName.has(key)) {
      const canonical = byName.get(key)!.name;
      if (pluginSections.has(canonical)) {
        throw new PipitError(
          'CONFIG_INVALID',
          `${entry.source}: "${key}" configures ${canonical} a second time (it is an alias)`,
        );
      }
      pluginSections.set(canonical, entry);
    } else {
      throw new PipitError(
        'CONFIG_INVALID',
        `${entry.source}: unknown key "${key}"${didYouMean(key, [...CORE_KEYS, ...byName.keys()])} A top-level key is a core key (${[...CORE_KEYS].join(', ')}), a plugin (${[...byName.keys()].sort().join(', ')}), or a procedure./event.hook./cron. entry`,
      );
    }
  }
  const coreSource = (key: string) => raw.get(key)?.source ?? mainSource;
  for (const key of Object.keys(core))
    parseOrThrow(
      CoreConfig.pick({ [key]: true } as never),
      { [key]: core[key] },
      coreSource(key),
      '',
    );
  const parsed = parseOrThrow(CoreConfig, core, mainSource, '');

  const plugins = new Map<string, { config: unknown; source: string }>();
  for (const def of available) {
    const entry = pluginSections.get(def.name);
    if (!entry && !def.enabledByDefault) continue;
    let value = entry?.value ?? {};
    if (value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new PipitError(
        'CONFIG_INVALID',
        `${entry?.source ?? mainSource}: ${def.name}: expected a mapping of settings (or nothing); got ${preview(value)}`,
      );
    }
    const { enabled, disabled, ...rest } = value as Record<string, unknown>;
    if (enabled === false || disabled === true) continue;
    if (
      (enabled !== undefined && typeof enabled !== 'boolean') ||
      (disabled !== undefined && typeof disabled !== 'boolean')
    ) {
      throw new PipitError(
        'CONFIG_INVALID',
        `${entry?.source ?? mainSource}: ${def.name}.enabled: expected true or false; got ${preview(enabled ?? disabled)}`,
      );
    }
    const schema = def.config ?? z.strictObject({});
    plugins.set(def.name, {
      config: parseOrThrow(schema, rest, entry?.source ?? mainSource, def.name),
      source: entry?.source ?? mainSource,
    });
  }

  const http = parsed['backend.http'];
  return {
    path,
    packagePlugins,
    dir,
    deviceId: parsed.device_id,
    workdir: parsed.workdir ? resolvePath(parsed.workdir, dir) : defaultWorkdir(env),
    scriptsDir: resolvePath(parsed.scripts_dir, dir),
    http:
      http === undefined
        ? null
        : (http ??
          parseOrThrow(
            CoreConfig.shape['backend.http'].unwrap().unwrap(),
            {},
            mainSource,
            'backend.http',
          )),
    redisUrl: parsed.redis?.url ?? null,
    redis: clusterSettings(parsed.redis, redisPipitForm, coreSource('redis')),
    logLevel: parsed.logging?.level ?? 'info',
    logFormat: parsed.logging?.format ?? 'auto',
    eventNamespace: parsed['event.namespace'],
    plugins,
    procedures: sections.procedure,
    hooks: sections.hook,
    crons: sections.cron,
    warnings,
  };
}
