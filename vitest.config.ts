import { defineConfig } from 'vitest/config';

export default defineConfig({
  // User scripts `import ... from 'pipit'`; in the service Node resolves that to this package
  // (src/scripts/loader.ts), under vitest this alias does the same.
  resolve: {
    alias: [
      { find: /^pipit$/, replacement: new URL('./src/index.ts', import.meta.url).pathname },
      {
        find: /^pipit\/testing$/,
        replacement: new URL('./src/testing.ts', import.meta.url).pathname,
      },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'tools/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
