import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Tests run against the packages' sources, so no build is needed between an edit and a test.
const alias = {
  '@engram/protocol': source('protocol'),
  '@engram/client': source('client'),
  '@engram/server': source('server'),
};

const api = ['packages/server/test/api/**/*.test.ts'];

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts', 'packages/*/test/unit/**/*.test.ts'] },
      },
      {
        resolve: { alias },
        test: {
          name: 'client',
          include: ['packages/client/test/**/*.test.ts'],
          globalSetup: ['packages/client/test/setup.ts'],
          typecheck: { enabled: true, include: ['packages/client/test/**/*.test-d.ts'], tsconfig: 'packages/client/tsconfig.json' },
        },
      },
      {
        resolve: { alias },
        test: { name: 'pglite', include: api, globalSetup: ['packages/server/test/setup/pglite.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        resolve: { alias },
        test: { name: 'postgres', include: [...api, 'packages/server/test/postgres/**/*.test.ts'], globalSetup: ['packages/server/test/setup/postgres.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        // @engram/ai-sdk and @engram/express: each package's globalSetup starts one real Engram.
        resolve: { alias: { ...alias, '@engram/ai-sdk': source('ai-sdk'), '@engram/express': source('express') } },
        test: {
          name: 'adapters',
          include: ['packages/ai-sdk/test/**/*.test.ts', 'packages/express/test/**/*.test.ts'],
          globalSetup: ['packages/ai-sdk/test/setup.ts', 'packages/express/test/setup.ts'],
          typecheck: { enabled: true, include: ['packages/ai-sdk/test/**/*.test-d.ts'], tsconfig: 'packages/ai-sdk/tsconfig.json' },
        },
      },
      {
        // examples/: each runs end to end against one real Engram started by its globalSetup.
        resolve: { alias: { ...alias, '@engram/ai-sdk': source('ai-sdk'), '@engram/express': source('express') } },
        test: {
          name: 'examples',
          include: ['examples/*/test/**/*.test.ts'],
          globalSetup: ['examples/chat/test/setup.ts', 'examples/browser-key/test/setup.ts'],
        },
      },
    ],
  },
});
