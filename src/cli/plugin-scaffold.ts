import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PipitError } from '../core/errors.ts';

/** What a plugin name may be: lower-case words joined by `.`, `-` or `_` (`weather`, `light.lifx`). */
export const PLUGIN_NAME = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

/**
 * Writes a new plugin package: package.json, src/index.ts with one example action, a test that
 * passes with `npm test` at once (it needs only Pipit installed), a README and a tsconfig.
 * Returns the folder. Refuses a bad name and a folder that exists and is not empty.
 *
 * @example
 * scaffoldPlugin('weather', { dir: './pipit-plugin-weather', pipitVersion: '0.2.0' });
 */
export function scaffoldPlugin(
  name: string,
  opts: { dir?: string | undefined; pipitVersion: string },
): string {
  if (!PLUGIN_NAME.test(name))
    throw new PipitError(
      'INVALID_ARGUMENTS',
      `plugin new: "${name}" is not a plugin name: use lower-case letters, digits, "-" and "_", words joined by "." (weather, light.lifx)`,
    );
  const packageName = `pipit-plugin-${name.replaceAll('.', '-')}`;
  const dir = resolve(opts.dir ?? packageName);
  if (existsSync(dir) && readdirSync(dir).length)
    throw new PipitError(
      'CONFLICT',
      `plugin new: ${dir} exists and is not empty: choose another folder with --dir`,
    );
  const [major = '0', minor = '1'] = opts.pipitVersion.split('.');
  // Before 1.0 a minor version may break plugins; from 1.0 on, a major one.
  const range =
    major === '0'
      ? `>=0.${minor}.0 <0.${Number(minor) + 1}.0`
      : `>=${major}.0.0 <${Number(major) + 1}.0.0`;
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name: packageName,
        version: '0.1.0',
        description: `A Pipit plugin: ${name}`,
        type: 'module',
        main: 'dist/index.js',
        exports: { '.': './dist/index.js' },
        files: ['dist', 'README.md'],
        keywords: ['pipit-plugin'],
        license: 'MIT',
        pipit: { plugin: name },
        scripts: {
          build: 'tsc -p tsconfig.json',
          test: 'node --test test/*.test.ts',
          prepublishOnly: 'npm run build && npm test',
        },
        peerDependencies: { pipit: range },
        devDependencies: { pipit: `^${opts.pipitVersion}`, typescript: '^5.9.0' },
      },
      null,
      2,
    )}\n`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'es2024',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          declaration: true,
          outDir: 'dist',
          rootDir: 'src',
          skipLibCheck: true,
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules/\ndist/\n',
    'src/index.ts': `import { defineAction, definePlugin, z } from 'pipit';

// The plugin's settings: the "${name}:" section of Pipit's config.yaml.
const Config = z.strictObject({
  greeting: z.string().min(1).default('Hello').describe('the word to greet with'),
});

const greet = defineAction({
  name: 'greet',
  summary: 'Greets someone and counts the greetings.',
  params: {
    name: z.string().min(1).max(100).describe('who to greet'),
  },
  run: ({ name }, { state, kv }) => {
    const count = (kv.get<number>('count') ?? 0) + 1;
    kv.set('count', count);
    return { text: \`\${state.greeting}, \${name}!\`, count };
  },
});

export default definePlugin({
  name: '${name}',
  summary: 'Says hello (replace this with what your plugin does).',
  config: Config,
  actions: [greet],
  init: ({ config }) => ({ greeting: config.greeting }),
});
`,
    'test/index.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startPlugin } from 'pipit/testing';
import plugin from '../src/index.ts';

test('greet answers with the configured greeting and counts', async () => {
  const started = await startPlugin(plugin, { config: { greeting: 'Hi' } });
  try {
    assert.deepEqual(await started.call('greet', { name: 'Ada' }), { text: 'Hi, Ada!', count: 1 });
    assert.deepEqual(await started.call('greet', { name: 'Bo' }), { text: 'Hi, Bo!', count: 2 });
    await assert.rejects(started.call('greet', { name: '' }), /name/);
  } finally {
    await started.close();
  }
});
`,
    'README.md': `# ${packageName}

A [Pipit](https://www.npmjs.com/package/pipit) plugin: \`${name}\`.

## Use it

\`\`\`sh
cd ~/.config/pipit && npm install ${packageName}
\`\`\`

\`\`\`yaml
plugins: [${packageName}]
${name}:
  greeting: Hi
\`\`\`

\`\`\`sh
pipit run ${name}.greet name=Ada
\`\`\`

## Develop it

\`\`\`sh
npm install      # pipit and typescript
npm test         # node --test, with pipit/testing's startPlugin()
npm run build    # dist/, what the package ships
\`\`\`

Publish with \`npm publish\`: keep the keyword \`pipit-plugin\` and the \`pipit-plugin-\` prefix so
that people find it.
`,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}
