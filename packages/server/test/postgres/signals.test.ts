import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { NodeRoles, RunningNode } from '../../src/server.js';
import { startNode } from '../../src/server.js';
import { openStore } from '../../src/store/database.js';
import { memoryIndexOf } from '../../src/store/memory-index.js';
import { LISTENER_APPLICATION_NAME } from '../../src/store/signals.js';
import { call } from '../api/helpers.js';
import { ADMIN_URL, createTestDatabase } from '../setup/postgres.js';

// LISTEN/NOTIFY between the processes of one PostgreSQL store (store/signals.ts). Each node here
// opens a store of its own (its own pool, listening connection and index copies), as a process
// of its own would; they share only the database.

const KEY = 'egk_signals_test_key_0123456789abcdefghijklmn';
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function database() {
  const made = await createTestDatabase();
  const admin = new pg.Client({ connectionString: made.url });
  await admin.connect();
  cleanups.push(() => made.drop());
  cleanups.push(() => admin.end());
  return { url: made.url, name: new URL(made.url).pathname.slice(1), admin };
}

async function node(url: string, roles: NodeRoles, env: Record<string, string> = {}): Promise<RunningNode> {
  const started = await startNode(
    loadConfig({ DATABASE_URL: url, ENGRAM_PORT: '0', ENGRAM_BOOTSTRAP_KEY: KEY, ENGRAM_LEARNER_THREADS: '0', ...env }),
    roles,
    { announceKey: () => {} },
  );
  cleanups.push(() => started.close(1_000));
  return started;
}

const API_ONLY: NodeRoles = { api: true, workers: 0 };
const WORKERS_ONLY: NodeRoles = { api: false, workers: 1 };

async function save(api: RunningNode, space: string, text: string): Promise<string> {
  const saved = await call('POST', '/v1/memories', { base: api.url, key: KEY, space, body: { text } });
  expect(saved.status).toBe(201);
  return saved.body.source.id;
}

/** The source's status after waiting up to `seconds` for it to be learned. */
async function statusAfter(api: RunningNode, space: string, id: string, seconds: number): Promise<string> {
  const read = await call('GET', `/v1/sources/${id}?wait=${seconds}`, { base: api.url, key: KEY, space });
  expect(read.status).toBe(200);
  return read.body.source.status;
}

async function search(api: RunningNode, space: string, q: string) {
  const found = await call('POST', '/v1/search', { base: api.url, key: KEY, space, body: { q } });
  expect(found.status).toBe(200);
  return found.body;
}

async function spaceVersion(admin: pg.Client, space: string): Promise<string> {
  const { rows } = await admin.query(`select memories_version::text as version from spaces where account_id = 1 and name = $1`, [space]);
  return rows[0]!.version;
}

/** Waits for `check` to hold, looking every 50 ms, up to `seconds`; returns whether it held. */
async function eventually(check: () => boolean | Promise<boolean>, seconds = 10): Promise<boolean> {
  const deadline = Date.now() + seconds * 1_000;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function listeners(admin: pg.Client, name: string): Promise<{ pid: number }[]> {
  const { rows } = await admin.query(
    `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and (application_name = $2 or query ilike 'listen%')`,
    [name, LISTENER_APPLICATION_NAME],
  );
  return rows;
}

/**
 * Lets no new connection into the database until the returned function (or the file's cleanup)
 * lets them in again. A database's own sessions cannot shut its door: the machine's admin database does.
 */
async function shutDoor(name: string): Promise<() => Promise<void>> {
  const door = new pg.Client({ connectionString: ADMIN_URL });
  await door.connect();
  const reopen = () => door.query(`alter database ${name} with allow_connections true`).then(() => {});
  cleanups.push(async () => {
    await reopen();
    await door.end();
  });
  await door.query(`alter database ${name} with allow_connections false`);
  return reopen;
}

describe('learning in a worker process', () => {
  it("brings an API process's held copy of the space up to date without a search", async () => {
    const { url, admin } = await database();
    const api = await node(url, API_ONLY);
    await node(url, WORKERS_ONLY, { ENGRAM_POLL_MS: '50' });
    const space = 'harbour';
    const scope = { accountId: 1, space };
    const first = await save(api, space, 'Ilse Varga repairs fishing nets in the harbour of Tromsø.');
    expect(await statusAfter(api, space, first, 20)).toBe('finished');
    // A search makes the API's copy of the space.
    await search(api, space, 'fishing nets');
    const held = memoryIndexOf(api.store.db).heldVersion(scope);
    expect(held).toBe(await spaceVersion(admin, space));

    const second = await save(api, space, 'Ilse Varga bought a blue rowing boat called Marit.');
    expect(await statusAfter(api, space, second, 20)).toBe('finished');
    const learned = await spaceVersion(admin, space);
    expect(learned).not.toBe(held);
    // No search since: only the worker's signal can bring the copy to the version learning left.
    await eventually(() => memoryIndexOf(api.store.db).heldVersion(scope) === learned);
    expect(memoryIndexOf(api.store.db).heldVersion(scope)).toBe(learned);
  });
});

describe('a save in an API process', () => {
  it('is learned by an idle worker of another process long before its poll', async () => {
    const { url } = await database();
    const api = await node(url, API_ONLY);
    const worker = await node(url, WORKERS_ONLY, { ENGRAM_POLL_MS: '60000' });
    await eventually(() => worker.store.signals!.listening);
    // The worker looked for jobs when it started and sleeps 60 s now: only the save's signal wakes it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const space = 'orchard';
    const id = await save(api, space, 'Tomas Lind planted forty pear trees behind the mill.');
    expect(await statusAfter(api, space, id, 15)).toBe('finished');
  });
});

describe('the listening connection', () => {
  it('connects again after it is cut, logs the outage once, and hears signals again', async () => {
    const { url, name, admin } = await database();
    const api = await node(url, API_ONLY);
    const worker = await node(url, WORKERS_ONLY, { ENGRAM_POLL_MS: '60000' });
    const space = 'quarry';
    const scope = { accountId: 1, space };
    await eventually(async () => (await listeners(admin, name)).length === 2);
    const first = await save(api, space, 'Rosa Ekdahl splits granite blocks at the old quarry.');
    expect(await statusAfter(api, space, first, 15)).toBe('finished');
    await search(api, space, 'granite');
    expect(memoryIndexOf(api.store.db).heldVersion(scope)).toBe(await spaceVersion(admin, space));

    const lines: string[] = [];
    let unheard = '';
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      // Both listening connections are cut, and for a while no new connection is let in: several attempts fail.
      const before = (await listeners(admin, name)).map((row) => row.pid);
      expect(before).toHaveLength(2);
      const reopen = await shutDoor(name);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2', [
        name,
        LISTENER_APPLICATION_NAME,
      ]);
      expect(await eventually(() => !api.store.signals!.listening && !worker.store.signals!.listening)).toBe(true);
      // A save while the worker cannot hear it (the API's pool still has its connections).
      unheard = await save(api, space, 'Rosa Ekdahl keeps her chisels in a tin from Gdańsk.');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await reopen();
      expect(await eventually(() => api.store.signals!.listening && worker.store.signals!.listening, 40)).toBe(true);
      const after = (await listeners(admin, name)).map((row) => row.pid);
      expect(after).toHaveLength(2);
      expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    } finally {
      stderr.mockRestore();
    }
    expect(lines.filter((line) => line.includes('lost the connection that hears the other processes'))).toHaveLength(2);
    expect(lines.filter((line) => line.includes('listening for the other processes again'))).toHaveLength(2);
    // Back, the worker looked for jobs once, and found the save it did not hear (its poll is 60 s away).
    expect(await statusAfter(api, space, unheard, 15)).toBe('finished');

    // Heard again: the worker (polling every 60 s) learns a save at once, and the API's copy follows.
    const second = await save(api, space, 'Rosa Ekdahl drives a rusty yellow crane on Sundays.');
    expect(await statusAfter(api, space, second, 15)).toBe('finished');
    const learned = await spaceVersion(admin, space);
    await eventually(() => memoryIndexOf(api.store.db).heldVersion(scope) === learned);
    expect(memoryIndexOf(api.store.db).heldVersion(scope)).toBe(learned);
  }, 90_000);
});

describe('an API process whose listening connection was cut', () => {
  it('brings its held copies up to date when it is back: what was learned meanwhile was not heard', async () => {
    const { url, name, admin } = await database();
    const api = await node(url, API_ONLY);
    await node(url, WORKERS_ONLY, { ENGRAM_POLL_MS: '50' });
    const space = 'foundry';
    const scope = { accountId: 1, space };
    await eventually(async () => (await listeners(admin, name)).length === 2);
    const first = await save(api, space, 'Jonas Pell casts bronze bells at the foundry by the river.');
    expect(await statusAfter(api, space, first, 15)).toBe('finished');
    await search(api, space, 'bronze bells');
    const held = memoryIndexOf(api.store.db).heldVersion(scope);
    expect(held).toBe(await spaceVersion(admin, space));

    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const reopen = await shutDoor(name);
      // Only the API's listening connection (it listens for learning alone; the worker's for queued sources).
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = $1 and application_name = $2 and query ilike '%engram_learned%'`,
        [name, LISTENER_APPLICATION_NAME],
      );
      expect(await eventually(() => !api.store.signals!.listening)).toBe(true);
      // The worker still hears the save and learns it; the API does not hear that it did.
      const second = await save(api, space, 'Jonas Pell tunes each bell with a file and a tuning fork.');
      expect(await statusAfter(api, space, second, 15)).toBe('finished');
      const learned = await spaceVersion(admin, space);
      expect(learned).not.toBe(held);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(memoryIndexOf(api.store.db).heldVersion(scope)).toBe(held);
      await reopen();
      expect(await eventually(() => api.store.signals!.listening, 40)).toBe(true);
      // Back, with no search and no signal since: the copy catches up on its own.
      await eventually(() => memoryIndexOf(api.store.db).heldVersion(scope) === learned);
      expect(memoryIndexOf(api.store.db).heldVersion(scope)).toBe(learned);
    } finally {
      stderr.mockRestore();
    }
  }, 90_000);
});

describe('a process that both serves and learns', () => {
  it('acts once on its own work: its own signals are not heard', async () => {
    const { url } = await database();
    const both = await node(url, { api: true, workers: 1 }, { ENGRAM_POLL_MS: '60000' });
    await eventually(() => both.store.signals!.listening);
    const space = 'lighthouse';
    const scope = { accountId: 1, space };
    const first = await save(both, space, 'Nils Aune keeps the lamp of the lighthouse on Runde.');
    expect(await statusAfter(both, space, first, 15)).toBe('finished');
    await search(both, space, 'lamp');
    const keepUp = vi.spyOn(memoryIndexOf(both.store.db), 'keepUp');
    const poke = vi.spyOn(both.workers[0]!, 'poke');
    try {
      const second = await save(both, space, 'Nils Aune paints the lighthouse door green every spring.');
      expect(await statusAfter(both, space, second, 15)).toBe('finished');
      // Time for the process's own signals to come back to it, were they heard.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(poke).toHaveBeenCalledTimes(1);
      expect(keepUp.mock.calls.filter(([, called]) => called.space === scope.space)).toHaveLength(1);
    } finally {
      keepUp.mockRestore();
      poke.mockRestore();
    }
  });
});

describe('ENGRAM_PG_NOTIFY', () => {
  it('=0 opens no listening connection and sends nothing', async () => {
    const { url, name, admin } = await database();
    const api = await node(url, { api: true, workers: 1 }, { ENGRAM_PG_NOTIFY: '0', ENGRAM_POLL_MS: '50' });
    await node(url, WORKERS_ONLY, { ENGRAM_PG_NOTIFY: '0', ENGRAM_POLL_MS: '50' });
    expect(api.store.signals).toBeNull();
    await admin.query('listen engram_learned');
    await admin.query('listen engram_queued');
    const heard: string[] = [];
    admin.on('notification', (message) => heard.push(message.channel));
    const space = 'meadow';
    const id = await save(api, space, 'Greta Holm mows the meadow by the chapel each July.');
    expect(await statusAfter(api, space, id, 20)).toBe('finished');
    await search(api, space, 'meadow');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard).toEqual([]);
    expect(await listeners(admin, name)).toEqual([]);
  });

  it('is on by default: the same cluster listens and signals', async () => {
    const { url, name, admin } = await database();
    const api = await node(url, { api: true, workers: 1 }, { ENGRAM_POLL_MS: '50' });
    await node(url, WORKERS_ONLY, { ENGRAM_POLL_MS: '50' });
    await admin.query('listen engram_learned');
    await admin.query('listen engram_queued');
    const heard: string[] = [];
    admin.on('notification', (message) => heard.push(message.channel));
    const space = 'meadow';
    const id = await save(api, space, 'Greta Holm mows the meadow by the chapel each July.');
    expect(await statusAfter(api, space, id, 20)).toBe('finished');
    expect(await eventually(() => heard.includes('engram_learned'))).toBe(true);
    expect(heard).toContain('engram_queued');
    expect(await eventually(async () => (await listeners(admin, name)).length === 2)).toBe(true);
  });

  it('is read from the environment: on unless 0, false, no or off', () => {
    expect(loadConfig({}).pgNotify).toBe(true);
    expect(loadConfig({ ENGRAM_PG_NOTIFY: '1' }).pgNotify).toBe(true);
    for (const off of ['0', 'false', 'No', ' off ']) expect(loadConfig({ ENGRAM_PG_NOTIFY: off }).pgNotify).toBe(false);
  });

  it('changes nothing on the embedded store: it has no signals', async () => {
    const store = await openStore(loadConfig({ ENGRAM_DATA_DIR: 'memory://' }));
    try {
      expect(store.kind).toBe('pglite');
      expect(store.signals).toBeNull();
    } finally {
      await store.close();
    }
  });
});
