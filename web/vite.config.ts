import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// Vite requires a default export. The build must stay CSP-clean (no inline scripts or styles):
// assets are always emitted as files and the module preload polyfill (an inline script) is off.
export default defineConfig({
  root,
  base: '/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: {
      // `npx vite web` during development, against a `pipit start` on the default port.
      '^/(auth|register|login|logout|tokens|execute)': 'http://127.0.0.1:8008',
      '/ws': { target: 'ws://127.0.0.1:8008', ws: true },
    },
  },
});
