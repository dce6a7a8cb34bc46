import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedThreadOf, openStore, PriorityGate, type Store } from './database.js';

describe('the priority gate', () => {
  it('hands the connection to waiting urgent callers before background ones, each kind in order', async () => {
    const gate = new PriorityGate();
    const order: string[] = [];
    await gate.acquire(false);
    const waiting = [
      gate.acquire(false).then(() => order.push('background 1')),
      gate.acquire(true).then(() => order.push('urgent 1')),
      gate.acquire(false).then(() => order.push('background 2')),
      gate.acquire(true).then(() => order.push('urgent 2')),
    ];
    expect(gate.waiting).toEqual({ urgent: 2, background: 2 });
    for (let index = 0; index < 4; index++) {
      gate.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(waiting);
    gate.release();
    expect(order).toEqual(['urgent 1', 'urgent 2', 'background 1', 'background 2']);
    expect(gate.waiting).toEqual({ urgent: 0, background: 0 });
  });
});

describe('the embedded store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it('answers a request waiting behind a learning transaction before the learner statements queued before it', async () => {
    await sql`create table learned (id serial primary key, text text)`.execute(store.db);
    const order: string[] = [];
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    let begun!: () => void;
    const started = new Promise<void>((resolve) => {
      begun = resolve;
    });
    // A learning batch: one transaction on the background side, held open until told.
    const batch = store.background.transaction().execute(async (transaction) => {
      await sql`insert into learned (text) values ('first fact')`.execute(transaction);
      begun();
      await held;
      await sql`insert into learned (text) values ('second fact')`.execute(transaction);
      order.push('batch');
    });
    await started;
    // The learner's next statements queue first, then a request's.
    const learner = sql`select count(*)::int as count from learned`.execute(store.background).then(() => order.push('learner'));
    const request = sql<{ count: number }>`select count(*)::int as count from learned`.execute(store.db).then((result) => {
      order.push('request');
      return result.rows[0]!.count;
    });
    holding();
    const [, seen] = await Promise.all([batch, request, learner]);
    expect(order).toEqual(['batch', 'request', 'learner']);
    // The request saw the whole batch, committed.
    expect(seen).toBe(2);
  });
});

describe("the embedded store's thread", () => {
  it('runs statements on a thread of its own, leaving this thread free meanwhile', async () => {
    const store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
    try {
      const thread = embeddedThreadOf(store)!;
      expect(thread.worker.threadId).toBeGreaterThan(0);
      // A statement that runs for half a second on the store's thread: timers here keep firing.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const statement = sql<{ slept: string }>`select pg_sleep(0.5)::text as slept, ${'done'}::text as said`.execute(store.db);
      const [result] = await Promise.all([statement, new Promise((resolve) => setTimeout(resolve, 100))]);
      clearInterval(timer);
      expect(result.rows).toEqual([{ slept: '', said: 'done' }]);
      // On the calling thread (the store before) the statement held every timer: no tick at all.
      expect(ticks).toBeGreaterThanOrEqual(5);
      // Errors of SQL come back as the statement's error; the store goes on.
      await expect(sql`select * from no_such_table`.execute(store.db)).rejects.toThrow('relation "no_such_table" does not exist');
      const { rows } = await sql<{ sum: number }>`select ${20}::int + ${22}::int as sum`.execute(store.background);
      expect(rows).toEqual([{ sum: 42 }]);
      // Started with the smaller shared buffers, and durable commits.
      const settings = await sql<{ name: string; setting: string }>`
        select name, setting from pg_settings where name in ('shared_buffers', 'synchronous_commit') order by name`.execute(store.db);
      expect(settings.rows).toEqual([
        { name: 'shared_buffers', setting: '4096' },
        { name: 'synchronous_commit', setting: 'on' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('fails pending and later statements with a clear error when its thread stops, and still closes', async () => {
    const store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
    const thread = embeddedThreadOf(store)!;
    const pending = sql`select pg_sleep(5)`.execute(store.db);
    // Stopped while the statement runs (as a crash of the thread would).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await thread.worker.terminate();
    await expect(pending).rejects.toThrow(/embedded store's thread stopped/);
    await expect(sql`select 1`.execute(store.db)).rejects.toThrow(/embedded store's thread stopped/);
    await expect(sql`select 1`.execute(store.background)).rejects.toThrow(/embedded store's thread stopped/);
    await store.close();
  });

  it('keeps the process alive until it has closed, with a statement answered while closing', async () => {
    // In a process of its own: a thread let go of (unref) when the statement's answer came, while
    // PGlite was still closing, ended the process with nothing left to wait for (exit code 13,
    // an unsettled top-level await) before it printed "closed".
    const script = `
      import { serialize } from 'pg-protocol';
      const { EmbeddedThread } = await import(${JSON.stringify(new URL('./embedded-store.ts', import.meta.url).href)});
      const thread = new EmbeddedThread({ dataDir: 'memory://' });
      await thread.waitReady;
      const statement = thread.run(new Uint8Array(serialize.query('select pg_sleep(0.3)')), () => {});
      await Promise.all([statement, thread.close()]);
      console.log('closed');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    expect(stdout.trim()).toBe('closed');
  });
});
