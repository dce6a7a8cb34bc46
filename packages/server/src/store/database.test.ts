import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError } from './data-dir-lock.js';
import { EMBEDDED_YOUNG_GENERATION_MB, openStore, type Store } from './database.js';
import { embeddedThreadOf } from './embedded-store.js';

/** Runs an ES module `script` in a fresh Node process (with `nodeFlags`) from the package's directory, the sources loaded by tsx; its standard output. */
async function runModule(script: string, nodeFlags: string[] = []): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

describe('the embedded store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it('runs with 16MB of shared buffers and commits synchronously', async () => {
    const { rows } = await sql<{ buffers: string; commit: string }>`
      select current_setting('shared_buffers') as buffers, current_setting('synchronous_commit') as commit`.execute(store.db);
    expect(rows).toEqual([{ buffers: '16MB', commit: 'on' }]);
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

  it('posts statements asked together at once, without waiting for the one before to be answered', async () => {
    const thread = embeddedThreadOf(store)!;
    const asked = [1, 2, 3, 4].map((value) => sql<{ value: number }>`select ${value}::int as value, pg_sleep(0.02)`.execute(store.db));
    // Once the connections have sent them (a turn of the event loop), all four are at the thread.
    await new Promise((resolve) => setImmediate(resolve));
    expect(thread.inFlight).toBe(4);
    const answers = await Promise.all(asked);
    expect(answers.map((answer) => answer.rows[0]!.value)).toEqual([1, 2, 3, 4]);
    expect(thread.inFlight).toBe(0);
  });

  it("holds other connections' statements while a transaction is open, so none runs inside it", async () => {
    await sql`create table pending_notes (id serial primary key, text text)`.execute(store.db);
    const thread = embeddedThreadOf(store)!;
    const counted: number[] = [];
    const count = () =>
      sql<{ count: number }>`select count(*)::int as count from pending_notes`.execute(store.db).then((result) => {
        counted.push(result.rows[0]!.count);
        return result.rows[0]!.count;
      });
    let go!: () => void;
    const wait = new Promise<void>((resolve) => {
      go = resolve;
    });
    let inside!: () => void;
    const begun = new Promise<void>((resolve) => {
      inside = resolve;
    });
    // A transaction that will roll back: what it wrote is never seen by a statement asked meanwhile.
    const rolledBack = store.db
      .transaction()
      .execute(async (transaction) => {
        await sql`insert into pending_notes (text) values ('not kept')`.execute(transaction);
        inside();
        await wait;
        throw new Error('changed its mind');
      })
      .catch((error: Error) => error.message);
    await begun;
    const during = count();
    await new Promise((resolve) => setImmediate(resolve));
    expect(thread.order.waiting.held.urgent).toBe(1);
    expect(counted).toEqual([]);
    go();
    expect(await rolledBack).toBe('changed its mind');
    expect(await during).toBe(0);
    // A transaction that commits: a statement asked meanwhile sees all of it, after it.
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started!: () => void;
    const opened = new Promise<void>((resolve) => {
      started = resolve;
    });
    const committed = store.db.transaction().execute(async (transaction) => {
      await sql`insert into pending_notes (text) values ('one')`.execute(transaction);
      started();
      await finishing;
      await sql`insert into pending_notes (text) values ('two')`.execute(transaction);
    });
    await opened;
    const after = count();
    finish();
    await committed;
    expect(await after).toBe(2);
    expect(thread.order.waiting).toEqual({ claims: { urgent: 0, background: 0 }, held: { urgent: 0, background: 0 } });
  });

  // Its thread, on the same store.
  it('runs PGlite on a thread of its own', () => {
    const thread = embeddedThreadOf(store)!;
    expect(thread.worker.threadId).toBeGreaterThan(0);
    expect(thread.failure).toBeNull();
  });

  it("starts the store's thread with a small young generation", () => {
    const limits = embeddedThreadOf(store)!.worker.resourceLimits!;
    expect(limits.maxYoungGenerationSizeMb).toBe(EMBEDDED_YOUNG_GENERATION_MB);
  });

  it("compiles PGlite's WebAssembly as each function is first called, with V8's optimising compiler only", async () => {
    // V8's baseline code (Liftoff) for the whole module, recompiled on V8's background threads
    // once hot, left some 60 to 80 MB of malloc memory resident in those threads' arenas. V8
    // traces each function it compiles: the module with the most functions is PGlite's.
    const script = `
      const { protocol } = await import('@electric-sql/pglite');
      const { EmbeddedThread } = await import(${JSON.stringify(new URL('./embedded-store.ts', import.meta.url).href)});
      const thread = new EmbeddedThread({ dataDir: 'memory://' });
      await thread.waitReady;
      await thread.run(protocol.serialize.query('select 1'), () => {});
      await thread.close();`;
    const stdout = await runModule(script, ['--trace-wasm-compilation-times']);
    const modules = new Map<string, { functions: number; liftoff: number; turbofan: number }>();
    for (const [, module, tier] of stdout.matchAll(/^Compiled function (\S+)#\d+ using (\w+)/gm)) {
      const seen = modules.get(module!) ?? { functions: 0, liftoff: 0, turbofan: 0 };
      seen.functions += 1;
      if (tier === 'Liftoff') seen.liftoff += 1;
      if (tier === 'TurboFan') seen.turbofan += 1;
      modules.set(module!, seen);
    }
    const pglite = [...modules.values()].sort((a, b) => b.functions - a.functions)[0]!;
    expect(pglite.liftoff).toBe(0);
    // Only what opening the store and a first statement ran: a few thousand of its 13,000-odd functions.
    expect(pglite.turbofan).toBeGreaterThan(1_000);
    expect(pglite.turbofan).toBeLessThan(8_000);
  }, 60_000);

  it('passes parameters of every kind the server sends and reads them back with their types', async () => {
    const when = new Date('2031-02-03T04:05:06.789Z');
    const { rows } = await sql<Record<string, unknown>>`
      select ${41}::int + 1 as int, ${2 ** 40}::bigint as big, ${0.25}::float8 * 2 as float, ${'12.5'}::numeric as numeric,
             ${'Ørsted wrote ✓ on "day" 3\n'}::text as text, ${null}::text as nothing, ${true}::boolean as yes,
             ${when}::timestamptz as at, ${JSON.stringify({ note: 'a pear', tags: ['x'] })}::jsonb as json,
             ${['a', 'b c']}::text[] as list, ${[3, 1, 2]}::int[] as numbers, ${Buffer.from([0, 255, 7])}::bytea as bytes`.execute(
      store.db,
    );
    expect(rows).toEqual([
      {
        int: 42,
        big: 2 ** 40,
        float: 0.5,
        numeric: 12.5,
        text: 'Ørsted wrote ✓ on "day" 3\n',
        nothing: null,
        yes: true,
        at: when,
        json: { note: 'a pear', tags: ['x'] },
        list: ['a', 'b c'],
        numbers: [3, 1, 2],
        bytes: Buffer.from([0, 255, 7]),
      },
    ]);
  });

  it('reads a reply larger than one part of the thread (rows across parts)', async () => {
    // About 6 MB of rows: PGlite writes its reply in parts of up to 1 MB, and a row may be cut between two.
    const { rows } = await sql<{ n: number; text: string }>`
      select n, repeat(chr(97 + n % 26), 150 + n % 7) as text from generate_series(1, 40000) as n`.execute(store.db);
    expect(rows).toHaveLength(40_000);
    expect(rows[0]).toEqual({ n: 1, text: 'b'.repeat(151) });
    expect(rows[39_999]).toEqual({ n: 40_000, text: String.fromCharCode(97 + (40_000 % 26)).repeat(150 + (40_000 % 7)) });
    expect(rows.every((row, index) => row.n === index + 1 && row.text.length === 150 + (row.n % 7))).toBe(true);
  });

  it('commits a transaction whole and rolls one back whole', async () => {
    await sql`create table kept (id int primary key, label text not null)`.execute(store.db);
    await store.db.transaction().execute(async (transaction) => {
      await sql`insert into kept values (1, 'plum')`.execute(transaction);
      await sql`insert into kept values (2, 'fig')`.execute(transaction);
    });
    await expect(
      store.background.transaction().execute(async (transaction) => {
        await sql`insert into kept values (3, 'quince')`.execute(transaction);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await sql<{ id: number; label: string }>`select id, label from kept order by id`.execute(store.db);
    expect(rows).toEqual([
      { id: 1, label: 'plum' },
      { id: 2, label: 'fig' },
    ]);
  });

  it('fails a statement with its SQLSTATE code and goes on', async () => {
    await sql`create table unique_names (name text primary key)`.execute(store.db);
    await sql`insert into unique_names values (${'Ilse'})`.execute(store.db);
    const duplicate = await sql`insert into unique_names values (${'Ilse'})`.execute(store.db).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'unique_names_pkey', table: 'unique_names' });
    await expect(sql`select * from no_such_table`.execute(store.db)).rejects.toMatchObject({
      code: '42P01',
      message: 'relation "no_such_table" does not exist',
    });
    // An error inside a transaction rolls it back; the connection is usable after.
    await expect(
      store.db.transaction().execute(async (transaction) => {
        await sql`insert into unique_names values (${'Wendel'})`.execute(transaction);
        await sql`select 1 / ${0}::int`.execute(transaction);
      }),
    ).rejects.toMatchObject({ code: '22012' });
    const { rows } = await sql<{ name: string }>`select name from unique_names order by name`.execute(store.background);
    expect(rows).toEqual([{ name: 'Ilse' }]);
  });

  it('leaves this thread free while a statement runs on its own', async () => {
    // Timers here keep firing while the store's thread sleeps. On the calling thread (the store
    // before) the statement held every timer until it was done: none fired before its answer.
    let answered = false;
    let ticksBeforeAnswer = 0;
    const statement = sql<{ slept: string; said: string }>`select pg_sleep(0.4)::text as slept, ${'done'}::text as said`
      .execute(store.db)
      .then((result) => {
        answered = true;
        return result;
      });
    const ticking = (async () => {
      while (!answered) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (!answered) ticksBeforeAnswer++;
      }
    })();
    const [result] = await Promise.all([statement, ticking]);
    expect(result.rows).toEqual([{ slept: '', said: 'done' }]);
    expect(ticksBeforeAnswer).toBeGreaterThanOrEqual(3);
  });
});

describe("the embedded store's thread stopping", () => {
  it('fails pending and later statements with a clear error, and still closes and lets go of the data dir', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'engram-thread-'));
    try {
      const store = await openStore({ databaseUrl: null, dataDir });
      await expect(openStore({ databaseUrl: null, dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
      await sql`create table kept (label text)`.execute(store.db);
      await sql`insert into kept values ('saved before')`.execute(store.db);
      const thread = embeddedThreadOf(store)!;
      const pending = sql`select pg_sleep(5)`.execute(store.db);
      const waiting = sql`select 1`.execute(store.background);
      // Stopped while the statement runs, as a crash of the thread would.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await thread.worker.terminate();
      await expect(pending).rejects.toThrow(/embedded store's thread stopped/);
      await expect(waiting).rejects.toThrow(/embedded store's thread stopped/);
      await expect(sql`select 1`.execute(store.db)).rejects.toThrow(/embedded store's thread stopped/);
      await expect(sql`select 1`.execute(store.background)).rejects.toThrow(/embedded store's thread stopped/);
      await store.close();
      // The lock is released, and the committed row is there when the store opens again.
      const again = await openStore({ databaseUrl: null, dataDir });
      try {
        const { rows } = await sql<{ label: string }>`select label from kept`.execute(again.db);
        expect(rows).toEqual([{ label: 'saved before' }]);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('ends its thread on close', async () => {
    const store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
    const thread = embeddedThreadOf(store)!;
    const exited = new Promise<number>((resolve) => thread.worker.once('exit', resolve));
    await store.close();
    expect(typeof (await exited)).toBe('number');
    await expect(sql`select 1`.execute(store.db)).rejects.toThrow();
  });

  it('keeps the process alive until it has closed, with a statement answered while closing', async () => {
    // In a process of its own: a thread let go of (unref) when the statement's answer came, while
    // PGlite was still closing, would end the process with nothing left to wait for (exit code
    // 13, an unsettled top-level await) before it printed "closed".
    const script = `
      const { protocol } = await import('@electric-sql/pglite');
      const { EmbeddedThread } = await import(${JSON.stringify(new URL('./embedded-store.ts', import.meta.url).href)});
      const thread = new EmbeddedThread({ dataDir: 'memory://' });
      await thread.waitReady;
      const statement = thread.run(protocol.serialize.query('select pg_sleep(0.3)'), () => {});
      await Promise.all([statement, thread.close()]);
      console.log('closed');`;
    expect((await runModule(script)).trim()).toBe('closed');
  }, 60_000);

  it('opens in a process started with V8 flags, which a thread refuses in a list of its own', async () => {
    // `node --max-semi-space-size=4 … serve` (a smaller young generation for the main thread): the
    // thread's flags were the process's, and Node refuses V8 flags there, so the store never opened.
    const script = `
      const { EmbeddedThread } = await import(${JSON.stringify(new URL('./embedded-store.ts', import.meta.url).href)});
      const thread = new EmbeddedThread({ dataDir: 'memory://' });
      await thread.waitReady;
      await thread.close();
      const { getHeapSpaceStatistics } = await import('node:v8');
      const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      console.log('opened', young.space_size <= 8 * 1024 * 1024);`;
    expect((await runModule(script, ['--max-semi-space-size=4', '--stack-size=900'])).trim()).toBe('opened true');
  }, 60_000);
});
