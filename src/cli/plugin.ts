import type { Command } from 'commander';
import type { LoadedConfig } from '../config/load.ts';
import type { PluginDef } from '../core/action.ts';
import { pipitVersion } from '../lib/version.ts';
import { scaffoldPlugin } from './plugin-scaffold.ts';

/** One row of `pipit plugin list`. */
export interface PluginRow {
  name: string;
  version: string;
  /** `built-in`, or the package folder it was loaded from. */
  from: string;
  enabled: boolean;
  /** `started`/`failed` from the running service; `not running` when none runs. */
  state: string;
  error?: string;
  /** What the plugin last said of its link to what it drives (a bridge, a broker). */
  link?: { connected: boolean; detail?: string };
}

/**
 * The rows of `pipit plugin list`: every plugin Pipit ships and every package the config lists,
 * with whether the config enables it and, when a service runs, whether it started there.
 *
 * @example
 * pluginRows(config, plugins, running?.plugins);
 */
export function pluginRows(
  config: LoadedConfig,
  plugins: readonly PluginDef[],
  running:
    | readonly {
        name: string;
        state: string;
        error?: string;
        link?: { connected: boolean; detail?: string };
      }[]
    | undefined,
): PluginRow[] {
  const live = new Map(running?.map((p) => [p.name, p]));
  return plugins
    .map((def) => {
      const enabled = config.plugins.has(def.name);
      const here = live.get(def.name);
      const error = here?.error ?? def.failed;
      return {
        name: def.name,
        version: def.from?.version ?? pipitVersion(),
        from: def.from ? `${def.from.package} (${def.from.path})` : 'built-in',
        enabled,
        state: !running ? 'not running' : here ? here.state : enabled ? 'not started' : 'off',
        ...(error ? { error } : {}),
        ...(here?.link ? { link: here.link } : {}),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Adds `pipit plugin new` and `pipit plugin list` to the CLI.
 *
 * @example
 * addPluginCommands(program, { rows: async () => pluginRows(...), print });
 */
export function addPluginCommands(
  program: Command,
  deps: { rows: () => Promise<PluginRow[]>; print: (value: unknown) => void },
): void {
  const plugin = program.command('plugin').description('plugin packages');
  plugin
    .command('new <name>')
    .description(
      'write a new plugin package (package.json, src/index.ts with an example action, a test, a README)',
    )
    .option('--dir <path>', 'the folder to write it in (default: ./pipit-plugin-<name>)')
    .action((name: string, opts: { dir?: string }) => {
      const dir = scaffoldPlugin(name, { dir: opts.dir, pipitVersion: pipitVersion() });
      process.stdout.write(
        `wrote ${dir}\nnext: cd ${dir} && npm install && npm test\nthen list it in Pipit's config: plugins: [${dir}]\n`,
      );
    });
  plugin
    .command('list')
    .description(
      'every plugin, built-in or package: its version, where it comes from, whether it is enabled, and whether the running service started it',
    )
    .option('--json', 'print the list as JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await deps.rows();
      if (opts.json) return deps.print(rows);
      const width = Math.max(...rows.map((r) => r.name.length));
      for (const r of rows)
        process.stdout.write(
          `${r.name.padEnd(width)}  ${r.version.padEnd(8)}  ${r.enabled ? 'enabled ' : 'off     '}  ${r.state.padEnd(11)}  ${r.from}${r.link ? `\n${' '.repeat(width + 2)}${r.link.connected ? 'connected' : 'not connected'}${r.link.detail ? `: ${r.link.detail}` : ''}` : ''}${r.error ? `\n${' '.repeat(width + 2)}error: ${r.error}` : ''}\n`,
        );
    });
}
