import * as nodeModule from 'node:module';

let installed = false;

/**
 * Makes `import ... from 'pipit'` (and `'pipit/testing'`) in user scripts and plugin packages
 * resolve to this very copy of Pipit, without installing Pipit next to them: they share the
 * running service's modules (one zod, one PipitError) whatever `node_modules` they sit in.
 *
 * @example
 * installPipitResolver();
 * await import(pathToFileURL('/etc/pipit/scripts/hooks.mjs').href);
 */
export function installPipitResolver(): void {
  if (installed) return;
  installed = true;
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const self = {
    pipit: new URL(`../index.${ext}`, import.meta.url).href,
    'pipit/testing': new URL(`../testing.${ext}`, import.meta.url).href,
  };
  // A namespace import, not a named one: a named import of a Node 24 export fails while the graph
  // is linked on an older Node, before src/lib/node-version.ts can say what Pipit needs.
  nodeModule.registerHooks({
    resolve: (specifier, context, next) =>
      specifier === 'pipit' || specifier === 'pipit/testing'
        ? { url: self[specifier], shortCircuit: true }
        : next(specifier, context),
  });
}
