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
        test: { name: 'unit', testTimeout: 30_000, include: ['packages/*/src/**/*.test.ts', 'packages/*/test/unit/**/*.test.ts'] },
      },
      {
        resolve: { alias },
        test: {
          name: 'client',
          testTimeout: 30_000,
          include: ['packages/client/test/**/*.test.ts'],
          globalSetup: ['packages/client/test/setup.ts'],
          typecheck: { enabled: true, include: ['packages/client/test/**/*.test-d.ts'], tsconfig: 'packages/client/tsconfig.json' },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'pglite',
          include: api,
          globalSetup: ['packages/server/test/setup/pglite.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'postgres',
          include: [...api, 'packages/server/test/postgres/**/*.test.ts'],
          globalSetup: ['packages/server/test/setup/postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real `engram` processes from the build, killed and started again: the cluster on PostgreSQL and the embedded store's crash.
        resolve: { alias },
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          testTimeout: 900_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The web console in headless Chromium against a real server (npm run build first: it serves the built console).
        resolve: { alias },
        test: { name: 'console', include: ['packages/server/test/console/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 120_000 },
      },
      {
        // @engram/ai-sdk, @engram/express, @engram/langchain, @engram/llamaindex and @engram/openai: one real Engram for them all (test/adapters/setup.ts).
        resolve: {
          alias: {
            ...alias,
            '@engram/ai-sdk': source('ai-sdk'),
            '@engram/express': source('express'),
            '@engram/langchain': source('langchain'),
            '@engram/llamaindex': source('llamaindex'),
            '@engram/openai': source('openai'),
          },
        },
        test: {
          name: 'adapters',
          include: [
            'packages/ai-sdk/test/**/*.test.ts',
            'packages/express/test/**/*.test.ts',
            'packages/langchain/test/**/*.test.ts',
            'packages/llamaindex/test/**/*.test.ts',
            'packages/openai/test/**/*.test.ts',
          ],
          globalSetup: ['test/adapters/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          typecheck: { enabled: true, include: ['packages/ai-sdk/test/**/*.test-d.ts'], tsconfig: 'packages/ai-sdk/tsconfig.json' },
        },
      },
      {
        // examples/: each runs end to end against one real Engram started by its globalSetup.
        resolve: {
          alias: {
            ...alias,
            '@engram/ai-sdk': source('ai-sdk'),
            '@engram/express': source('express'),
            '@engram/langchain': source('langchain'),
            '@engram/llamaindex': source('llamaindex'),
          },
        },
        test: {
          name: 'examples',
          testTimeout: 30_000,
          include: ['examples/*/test/**/*.test.ts'],
          globalSetup: [
            'examples/chat/test/setup.ts',
            'examples/browser-key/test/setup.ts',
            'examples/langchain-rag/test/setup.ts',
            'examples/llamaindex-chat/test/setup.ts',
          ],
        },
      },
      {
        // test/published: the packed tarballs installed in a fresh project, with their server started by npx.
        test: {
          name: 'published',
          include: ['test/published/**/*.test.ts'],
          globalSetup: ['test/published/setup.ts'],
          testTimeout: 120_000,
        },
      },
      {
        // test/e2e: the README's curl session, run as written against `npm start`.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
    ],
  },
});
