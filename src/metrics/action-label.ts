import type { Registry } from '../core/registry.ts';

/**
 * The label of every action or procedure name the registry does not know.
 *
 * @example
 * rate(pipit_requests_total{action="(unknown)"}[5m]) # clients calling names that do not exist
 */
export const UNKNOWN_ACTION = '(unknown)';

/**
 * The `action` label for a run: the canonical name (aliases folded) when the registry knows the
 * action or procedure, else {@link UNKNOWN_ACTION}. Clients choose the names they send; only names
 * the configuration defines become label values, so hostile input cannot add time series.
 * Map lookups only: no error messages are built for unknown names.
 *
 * @example
 * actionLabel(registry, 'utils.echo');         // 'utils.echo'
 * actionLabel(registry, 'music.streaming.play'); // 'music.spotify.play' (an alias)
 * actionLabel(registry, 'nope.x' + Math.random()); // '(unknown)'
 */
export function actionLabel(registry: Registry, name: string): string {
  if (name.startsWith('procedure.')) {
    return registry.procedures.has(name.slice('procedure.'.length)) ? name : UNKNOWN_ACTION;
  }
  // Plugin names may contain dots: try every split, the longest plugin name first (as resolve does).
  let dot = name.lastIndexOf('.');
  while (dot > 0) {
    const pluginName = registry.canonical(name.slice(0, dot));
    const plugin = registry.plugins.get(pluginName);
    if (plugin) {
      const action = name.slice(dot + 1);
      return plugin.actions.has(action) ? `${pluginName}.${action}` : UNKNOWN_ACTION;
    }
    dot = name.lastIndexOf('.', dot - 1);
  }
  return UNKNOWN_ACTION;
}
