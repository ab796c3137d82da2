// The layers of src/, lowest first: a module imports from its own layer or the ones below, never
// from above (`npm run lint` runs this). docs/development.md draws the same list.
const LAYERS = [
  ['lib'], // general utilities: nothing of Pipit's
  ['core'], // the action model, errors, execute(), the registry, the ports upper layers fill
  ['store', 'auth', 'config', 'metrics'],
  ['procedures', 'cron', 'events'],
  ['scripts', 'cluster'],
  ['plugins'],
  // The service as one object, before anything serves it.
  ['app/service', 'app/user-layer', 'app/reload', 'app/banner', 'app/process-policy'],
  ['http', 'control'], // the transports
  ['app/runtime', 'app/library', 'cli', 'index', 'testing'], // what starts it all
];

// Built-in plugins that need nothing beyond what a plugin package gets.
const PUBLIC_PLUGINS = [
  'utils',
  'logger',
  'http',
  'shell',
  'homeassistant',
  'light-hue',
  'zigbee-mqtt',
  'system',
  'db',
  'ntfy',
  'mail-smtp',
  'chat-telegram',
  'music-mpd',
];

const path = (names) => `^src/(${names.join('|')})(/|\\.ts$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `layer-${layer[0].replace('/', '-')}`,
      comment: `${layer.join(', ')} may not import from a layer above: ${LAYERS.slice(i + 1)
        .flat()
        .join(', ')}`,
      severity: 'error',
      from: { path: path(layer) },
      to: { path: path(LAYERS.slice(i + 1).flat()) },
    })),
    {
      name: 'no-circular',
      comment:
        'a cycle of imports that run: two modules that need each other belong in one, or a port (cycles of `import type` are erased and allowed)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'plugins-keep-out-of-the-store',
      comment:
        'plugins reach stored data through their context (a key-value store of their own); only the run history plugin reads the store itself',
      severity: 'error',
      from: { path: '^src/plugins/', pathNot: '^src/plugins/runs/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'public-plugins-use-the-public-api',
      comment:
        "these plugins are written as a plugin package is: they import Pipit's public plugin API (src/plugins/api/, what 'pipit' exports) and nothing else of Pipit's",
      severity: 'error',
      from: { path: `^src/plugins/(${PUBLIC_PLUGINS.join('|')})(/|\\.ts$)` },
      // $1: a plugin in a folder may import its own files.
      to: { path: '^src/', pathNot: ['^src/plugins/api/', '^src/plugins/$1/'] },
    },
    {
      name: 'examples-use-the-package',
      comment: "example plugin packages import 'pipit', never Pipit's source files",
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^src/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$' },
  },
};
