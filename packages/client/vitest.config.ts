import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (name: string) => fileURLToPath(new URL(`../${name}/src/index.ts`, import.meta.url));

// The client's own run (`npm test -w @engram/client`); the root config's `client` project runs the same files.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    alias: { '@engram/protocol': source('protocol'), '@engram/client': source('client'), '@engram/server': source('server') },
  },
  test: {
    name: 'client',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
