import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { createAccount, createAccountKey } from '../../src/store/account-repository.js';
import { call as callOnce } from '../api/helpers.js';
import { createTestDatabase } from '../setup/postgres.js';

// An embedded store is exported with the engram command and moved whole into PostgreSQL: the
// same keys open the same memories there, and running the move again adds nothing. Each run of
// the command opens the embedded store anew, which takes a while on a busy machine.
const SLOW = 600_000;

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const run = promisify(execFile);
const ownerKey = 'egk_move_owner_0123456789abcdefghijklmnopqr';
const otherKey = 'egk_move_other_0123456789abcdefghijklmnopqr';
let dir: string;
let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let limitedKey: string;
const before: Record<string, unknown> = {};

/**
 * Calls a server, once more when the connection drops: on a loaded machine a kept-alive socket
 * may be closed by the server just as it is reused (not what these tests are about).
 */
const call: typeof callOnce = async (...args) => {
  try {
    return await callOnce(...args);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return callOnce(...args);
  }
};

/** Runs the built `engram` command on a store: the data dir, or PostgreSQL. */
async function engram(store: { dataDir?: string; databaseUrl?: string }, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, ENGRAM_DATA_DIR: store.dataDir ?? '', DATABASE_URL: store.databaseUrl ?? '' };
  if (!store.databaseUrl) delete env.DATABASE_URL;
  const { stdout } = await run(process.execPath, [cli, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** What a server answers a key about a space. */
async function answers(base: string, key: string, space: string) {
  return {
    memories: (await call('GET', '/v1/memories?limit=200', { base, key, space })).body,
    search: (await call('POST', '/v1/search', { base, key, space, body: { q: 'What does Sanna bake?' } })).body,
    files: (await call('GET', '/v1/files?prefix=/', { base, key, space })).body,
  };
}

const comparable = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line, index) => (index === 0 ? JSON.stringify({ ...JSON.parse(line), exported_at: null }) : line));

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`Build first (npm run build): ${cli} is missing`);
  dir = await mkdtemp(join(tmpdir(), 'engram-move-'));
  dataDir = join(dir, 'data');
  database = await createTestDatabase();
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: dataDir, ENGRAM_BOOTSTRAP_KEY: ownerKey, ENGRAM_POLL_MS: '20' }),
  );
  try {
    const other = await createAccount(server.store.db, 'bakery');
    await createAccountKey(server.store.db, other.id, { key: otherKey });
    const at = (key: string, method: string, path: string, body: unknown) => call(method, path, { base: server.url, key, body });
    const saved = await at(ownerKey, 'POST', '/v1/memories', { space: 'sanna', text: 'Sanna bakes rye bread every Friday.' });
    await call('GET', `/v1/sources/${saved.body.source.id}?wait=20&space=sanna`, { base: server.url, key: ownerKey });
    const file = await at(ownerKey, 'PUT', '/v1/files', {
      space: 'sanna',
      path: '/recipes/rye.md',
      text: 'The starter needs feeding twice a day.',
      labels: { topic: 'bread' },
    });
    await call('GET', `/v1/sources/${file.body.source.id}?wait=20&space=sanna`, { base: server.url, key: ownerKey });
    limitedKey = (await at(ownerKey, 'POST', '/v1/keys', { space: 'sanna', name: 'tablet' })).body.key;
    const own = await at(ownerKey, 'POST', '/v1/memories', { text: 'The owner drinks green tea in the morning.' });
    await call('GET', `/v1/sources/${own.body.source.id}?wait=20`, { base: server.url, key: ownerKey });
    const bakery = await at(otherKey, 'POST', '/v1/memories', { space: 'shop', text: 'The shop opens at seven on weekdays.' });
    await call('GET', `/v1/sources/${bakery.body.source.id}?wait=20&space=shop`, { base: server.url, key: otherKey });
    before.sanna = await answers(server.url, ownerKey, 'sanna');
    before.shop = await answers(server.url, otherKey, 'shop');
  } finally {
    await server.close();
  }
}, SLOW);

afterAll(async () => {
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('engram export, restore and migrate-store', () => {
  it(
    'exports a space and a whole account of a stopped embedded store, and moves it into PostgreSQL',
    async () => {
      const space = await engram({ dataDir }, 'export', '--space', 'sanna');
      const spaceLines = space
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(spaceLines[0]).toMatchObject({ type: 'header', scope: 'space' });
      expect(spaceLines.filter((line) => line.type === 'space').map((line) => line.name)).toEqual(['sanna']);
      expect(
        spaceLines
          .filter((line) => line.type === 'memory')
          .map((line) => line.text)
          .sort(),
      ).toEqual(['Sanna bakes rye bread every Friday.', 'The starter needs feeding twice a day.']);
      const all = await engram({ dataDir }, 'export', '--all');
      const allLines = all
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(allLines[0]).toMatchObject({
        type: 'header',
        scope: 'account',
        records: ['account_key', 'key', 'source', 'file', 'memory', 'usage', 'state_item', 'intention', 'lesson', 'episode', 'health_run'],
      });
      expect(allLines.filter((line) => line.type === 'space').map((line) => line.name)).toEqual(['', 'sanna']);
      expect(allLines.filter((line) => line.type === 'account_key')).toHaveLength(1);
      expect(all).not.toContain(ownerKey);
      await writeFile(join(dir, 'account.jsonl'), all);

      const moved = await engram({}, 'migrate-store', '--from', dataDir, '--to', database.url);
      expect(moved).toMatch(/^owner: account 1, spaces \(own\), sanna: added /m);
      expect(moved).toMatch(/^bakery: account 2, spaces \(own\), shop: added /m);
      const again = await engram({}, 'migrate-store', '--from', dataDir, '--to', database.url);
      expect(again).toMatch(/^owner: account 1, spaces \(own\), sanna: added nothing; already there /m);
      expect(again).toMatch(/^bakery: account 2, spaces \(own\), shop: added nothing; /m);

      // The moved account exports exactly as it did from the embedded store.
      expect(comparable(await engram({ databaseUrl: database.url }, 'export', '--all'))).toEqual(comparable(all));
    },
    SLOW,
  );

  it(
    'opens the same memories with the same keys after the move',
    async () => {
      const server = await startServer(loadConfig({ ENGRAM_PORT: '0', DATABASE_URL: database.url, ENGRAM_WORKERS: '0' }));
      try {
        expect(server.bootstrapKey).toBeNull();
        expect(await answers(server.url, ownerKey, 'sanna')).toEqual(before.sanna);
        expect(await answers(server.url, otherKey, 'shop')).toEqual(before.shop);
        expect((await call('GET', '/v1/memories', { base: server.url, key: limitedKey })).body.total).toBe(2);
        expect((await call('GET', '/v1/memories?space=shop', { base: server.url, key: ownerKey })).body.total).toBe(0);
        const saved = await call('POST', '/v1/memories', {
          base: server.url,
          key: ownerKey,
          body: { space: 'sanna', text: 'Sanna is opening a second bakery.' },
        });
        expect(saved.status).toBe(201);
      } finally {
        await server.close();
      }
    },
    SLOW,
  );

  it(
    'restores a file into another space, once, and refuses a newer format',
    async () => {
      const file = join(dir, 'account.jsonl');
      const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
      const sannaOnly = join(dir, 'sanna.jsonl');
      await writeFile(sannaOnly, await engram({ dataDir }, 'export', '--space', 'sanna'));
      const first = await engram({ databaseUrl: database.url }, 'restore', sannaOnly, '--space', 'sanna-copy');
      expect(first).toMatch(
        /^Restored account 1, spaces sanna-copy: added 2 source, 1 file, 2 memory, 1 usage, 1 episode; already there 1 key$/m,
      );
      const second = await engram({ databaseUrl: database.url }, 'restore', sannaOnly, '--space', 'sanna-copy');
      expect(second).toMatch(/added nothing/);

      await expect(engram({ databaseUrl: database.url }, 'restore', file, '--space', 'one')).rejects.toThrow(/holds 2 spaces/);
      const newer = join(dir, 'newer.jsonl');
      await writeFile(newer, [JSON.stringify({ ...JSON.parse(lines[0]!), version: 99 }), ...lines.slice(1)].join('\n'));
      await expect(engram({ databaseUrl: database.url }, 'restore', newer)).rejects.toThrow(/newer Engram \(export format version 99\)/);
    },
    SLOW,
  );
});
