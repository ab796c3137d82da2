/**
 * Helpers for plugin authors' tests (`pipit/testing`): start one plugin in-process, with a real
 * (temporary) database, and call its actions as Pipit would.
 *
 * @example
 * import { startPlugin } from 'pipit/testing';
 * import hello from '../src/index.ts';
 * const plugin = await startPlugin(hello, { config: { greeting: 'Hi' } });
 * await plugin.call('greet', { name: 'Ada' }); // { text: 'Hi, Ada!', ... }
 * await plugin.close();
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService } from './app/service.ts';
import { loadConfig } from './config/load.ts';
import type { PluginDef } from './core/action.ts';
import type { KeyValueStore } from './core/key-value.ts';
import { createLogger } from './core/logger.ts';
import { pluginCatalog } from './plugins/catalog.ts';

/** A plugin started by {@link startPlugin}. */
export interface StartedPlugin {
  /**
   * Calls one of the plugin's actions (`greet`, or a full name such as `utils.echo`) through
   * Pipit's execute(), with argument checks; returns the output, or throws the PipitError.
   */
  call(action: string, args?: Record<string, unknown>): Promise<unknown>;
  /** The events the plugin raised so far, oldest first (`kind` is the short name). */
  events: { kind: string; fields: Record<string, unknown> }[];
  /** The plugin's key-value store. */
  kv: KeyValueStore;
  /** Stops the plugin and removes the temporary folder. */
  close(): Promise<void>;
}

/**
 * Starts one plugin in-process with a config section, a temporary database and Pipit's built-in
 * plugins beside it (so that its `run()` reaches them).
 *
 * @example
 * const plugin = await startPlugin(hello, { config: { greeting: 'Hi' }, user: 'ada' });
 * expect(await plugin.call('greet', { name: 'Ada' })).toMatchObject({ text: 'Hi, Ada!' });
 */
export async function startPlugin(
  plugin: PluginDef,
  opts: { config?: Record<string, unknown>; user?: string; logLevel?: string } = {},
): Promise<StartedPlugin> {
  const dir = mkdtempSync(join(tmpdir(), `pipit-plugin-${plugin.name}-`));
  try {
    const path = join(dir, 'config.yaml');
    // JSON is YAML: the section is written as the test gave it.
    writeFileSync(
      path,
      `device_id: test\nworkdir: ./data\nscripts_dir: ./scripts\n${JSON.stringify(plugin.name)}: ${JSON.stringify(opts.config ?? {})}\n`,
    );
    const plugins = [...pluginCatalog.filter((p) => p.name !== plugin.name), plugin];
    const service = await createService(loadConfig({ path, plugins }), {
      plugins,
      log: createLogger({ level: opts.logLevel ?? 'warn' }),
      metrics: false,
      loadScripts: false,
    });
    const prefix = `pipit.message.event.${plugin.name}.`;
    const events: StartedPlugin['events'] = [];
    const unsubscribe = service.events.subscribe(({ event }) => {
      const { type, ...fields } = event.args;
      if (type.startsWith(prefix)) events.push({ kind: type.slice(prefix.length), fields });
    });
    const caller = opts.user ? { user: opts.user, via: 'test' } : undefined;
    return {
      call: async (action, args = {}) => {
        const name = action.includes('.') ? action : `${plugin.name}.${action}`;
        const out = await service.services.run(name, args, caller ? { caller } : {});
        // Events raised by the call reach subscribers on the next turn of the loop.
        await new Promise((resolve) => setImmediate(resolve));
        return out;
      },
      events,
      kv: service.store.pluginKv(plugin.name),
      close: async () => {
        unsubscribe();
        await service.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
