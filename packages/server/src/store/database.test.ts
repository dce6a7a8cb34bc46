import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, PriorityGate, type Store } from './database.js';

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

  it('runs with 32MB of shared buffers and commits synchronously', async () => {
    const { rows } = await sql<{ buffers: string; commit: string }>`
      select current_setting('shared_buffers') as buffers, current_setting('synchronous_commit') as commit`.execute(store.db);
    expect(rows).toEqual([{ buffers: '32MB', commit: 'on' }]);
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
