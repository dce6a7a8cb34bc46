// The adapter packages share one test server and its helpers (test/adapters/server.ts).
export * from '../../../../test/adapters/server.js';
