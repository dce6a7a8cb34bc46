import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Served by `engram serve` under /console; the server's build copies dist/ into its own dist/console.
export default defineConfig({
  base: '/console/',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 0 },
});
