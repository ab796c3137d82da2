import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { createLogger } from '../../src/core/logger.ts';
import { compileActions, Registry } from '../../src/core/registry.ts';
import { loadEnabledPlugins, pluginCatalog } from '../../src/plugins/catalog.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { createService } from '../../src/app/service.ts';
import { tempDir } from '../helpers/service.ts';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function configFile(yaml: string): string {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const path = join(tmp.dir, 'config.yaml');
  writeFileSync(path, `device_id: t\nworkdir: ./data\n${yaml}`);
  return path;
}

describe('the plugin catalog', () => {
  // Both read each plugin's head.ts; this catches a plugin that stops spreading its head.
  it('names every plugin Pipit ships, in order, as the plugins themselves do', () => {
    const meta = (p: (typeof builtinPlugins)[number]) => ({
      name: p.name,
      aliases: p.aliases ?? [],
      enabledByDefault: p.enabledByDefault ?? false,
      disabledHint: p.disabledHint,
      eventKinds: [...(p.eventKinds ?? [])].sort(),
    });
    expect(pluginCatalog.map(meta)).toEqual(builtinPlugins.map(meta));
  });

  // The Execute tab builds its forms from the catalog: every action needs a summary and every
  // parameter its help text, in every plugin Pipit ships (enabled by default or not).
  it('gives every action of every plugin a summary and every parameter a description', () => {
    const registry = new Registry(builtinPlugins);
    for (const def of builtinPlugins)
      registry.addPlugin({ def, config: {}, state: undefined, actions: compileActions(def) });
    const catalog = registry.catalog();
    expect(catalog.map((p) => p.name).sort()).toEqual(builtinPlugins.map((p) => p.name).sort());
    for (const plugin of catalog) {
      expect(plugin.actions.length, plugin.name).toBeGreaterThan(0);
      for (const action of plugin.actions) {
        expect(action.summary, action.name).toBeTruthy();
        const props = (action.params.properties ?? {}) as Record<string, { description?: string }>;
        for (const [name, schema] of Object.entries(props))
          expect(schema.description, `${action.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('loads only the enabled plugins and checks their sections as loadConfig does', async () => {
    const path = configFile('shell: {allow: [uptime]}\n');
    const lazy = await loadEnabledPlugins(loadConfig({ path, plugins: pluginCatalog }));
    const eager = loadConfig({ path, plugins: builtinPlugins });
    expect([...lazy.config.plugins]).toEqual([...eager.plugins]);
    const byName = new Map(lazy.plugins.map((p) => [p.name, p]));
    expect(byName.get('shell')).toBe(builtinPlugins.find((p) => p.name === 'shell'));
    // Off: still a stand-in, without its actions.
    expect(byName.get('file')!.actions).toEqual([]);
    expect(byName.get('music.spotify')!.actions).toEqual([]);
  });

  it('refuses a bad section of a plugin loaded late with the same message', async () => {
    const path = configFile('shell: {allow: 3}\n');
    const eager = (() => {
      try {
        loadConfig({ path, plugins: builtinPlugins });
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(eager).toMatch(/shell\.allow/);
    await expect(loadEnabledPlugins(loadConfig({ path, plugins: pluginCatalog }))).rejects.toThrow(
      eager!,
    );
  });

  it('a service on the catalog runs enabled actions and explains the plugins that are off', async () => {
    const path = configFile('');
    const service = await createService(loadConfig({ path, plugins: pluginCatalog }), {
      log: createLogger({ level: 'silent' }),
    });
    try {
      const echo = await service.execute(
        { type: 'request', action: 'utils.echo', args: { a: 1 } },
        { transport: 'cli' },
      );
      expect(echo.message.response.output).toEqual({ a: 1 });
      const shell = await service.execute(
        { type: 'request', action: 'shell.exec', args: { cmd: 'true' } },
        { transport: 'cli' },
      );
      expect(shell.message.response.errors[0]).toMatch(
        /plugin "shell" is not enabled: it runs any/,
      );
    } finally {
      await service.close();
    }
  });
});

describe('what each built-in plugin may reach', () => {
  it('is the public plugin API, or the plugin says it is privileged', async () => {
    // The plugins the dependency rules hold to the public API (their folders or files).
    const rules = readFileSync(join(import.meta.dirname, '../../.dependency-cruiser.cjs'), 'utf8');
    const listed = JSON.parse(
      // One line or prettier's one name a line (with a trailing comma).
      /const PUBLIC_PLUGINS = (\[[^\]]*\])/
        .exec(rules)![1]!
        .replaceAll("'", '"')
        .replace(/,\s*\]$/, ']'),
    ) as string[];
    const folderOf = (name: string) => name.replaceAll('.', '-');
    for (const def of builtinPlugins) {
      const isPublic = listed.includes(folderOf(def.name));
      expect(
        isPublic !== (def.privileged === true),
        `${def.name}: public API (${isPublic}) or privileged (${def.privileged === true}), one of the two`,
      ).toBe(true);
    }
  });
});
