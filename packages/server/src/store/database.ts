import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { lockDataDir } from './data-dir-lock.js';
import type { EmbeddedThread } from './embedded-store.js';
import { MAX_PREPARED, namedPool, namedQuery, StatementNames } from './prepared.js';
import type { Database } from './schema/tables.js';
import { StoreSignals } from './signals.js';

export type { Database, Row } from './schema/tables.js';

// Counts and ids come back as numbers, not strings: none of ours pass 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * The store's handle, typed by its tables (store/schema/tables.ts). Most queries are raw SQL with
 * Kysely's parameterising `sql` tag; the query builder checks table and column names against
 * `Database`.
 */
export type Db = Kysely<Database>;

/** An open store: the query interface and a way to close it. */
export interface Store {
  /** The store as requests use it. */
  db: Db;
  /**
   * The same store for background work (learning, housekeeping). On the embedded store, whose
   * one connection everything shares, a request waiting for it goes ahead of any background
   * work waiting; on PostgreSQL it is `db` itself.
   */
  background: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Signals between the processes sharing a PostgreSQL store (store/signals.ts): null on the
   * embedded store, which one process owns, and when ENGRAM_PG_NOTIFY=0. Optional, so that a
   * store made outside `openStore` (an embedder's) needs none.
   */
  signals?: StoreSignals | null;
  close(): Promise<void>;
}

/**
 * Who gets one shared connection next: callers marked urgent (requests) before the others
 * (learning, housekeeping), each kind in the order it asked. A holder keeps the connection
 * for one statement, or for a whole transaction; learning keeps its transactions short
 * (jobs/learn-source.ts), so a request waits for at most one of them.
 *
 * When an urgent caller lets go and only background work waits, the connection stays free until
 * the event loop's next turn (`setImmediate`) before it goes to the background: a request that
 * runs a statement, works on its answer for a moment and runs its next (a save's key check, then
 * its save) takes it back without waiting behind a whole learning transaction.
 */
export class PriorityGate {
  #busy = false;
  #heldByUrgent = false;
  #urgentAt = Number.NEGATIVE_INFINITY;
  #handOnQueued = false;
  readonly #urgent: (() => void)[] = [];
  readonly #background: (() => void)[] = [];

  /** Resolves when the caller holds the connection; it must `release` it after. */
  acquire(urgent: boolean): Promise<void> {
    if (urgent) this.#urgentAt = performance.now();
    // A free connection goes to the caller, unless it is background work and other background work waits first.
    if (!this.#busy && (urgent || !this.#background.length)) {
      this.#busy = true;
      this.#heldByUrgent = urgent;
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? this.#urgent : this.#background).push(resolve));
  }

  /** Hands the connection to the next waiting caller, an urgent one first. */
  release(): void {
    if (this.#heldByUrgent) this.#urgentAt = performance.now();
    const urgent = this.#urgent.shift();
    if (urgent) {
      this.#heldByUrgent = true;
      urgent();
      return;
    }
    if (this.#background.length && !this.#heldByUrgent) {
      this.#background.shift()!();
      return;
    }
    this.#busy = false;
    if (this.#background.length && !this.#handOnQueued) {
      this.#handOnQueued = true;
      setImmediate(() => {
        this.#handOnQueued = false;
        if (this.#busy || !this.#background.length) return;
        this.#busy = true;
        this.#heldByUrgent = false;
        this.#background.shift()!();
      });
    }
  }

  /** Milliseconds since a request last asked for or let go of the connection (Infinity: never). */
  get quietMs(): number {
    return performance.now() - this.#urgentAt;
  }

  /** How many callers wait, by kind (tests). */
  get waiting(): { urgent: number; background: number } {
    return { urgent: this.#urgent.length, background: this.#background.length };
  }
}

const quieted = new WeakSet<pg.PoolClient>();

/** A pool that lends `pool`'s connection through the gate, as an urgent caller or a background one. */
function gatedPool(
  pool: pg.Pool,
  gate: PriorityGate,
  urgent: boolean,
  ends: boolean,
  thread: EmbeddedThread,
  names: StatementNames,
): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      await gate.acquire(urgent);
      let client: pg.PoolClient;
      try {
        // A store whose thread stopped says so, rather than node-postgres's "not queryable".
        if (thread.failure) throw thread.failure;
        client = await pool.connect();
        // node-postgres emits a lost connection on the client too; the statement gets the error.
        if (!quieted.has(client)) {
          quieted.add(client);
          client.on('error', () => {});
        }
      } catch (error) {
        gate.release();
        throw error;
      }
      let released = false;
      return {
        query: namedQuery(client, names),
        release() {
          if (released) return;
          released = true;
          client.release();
          gate.release();
        },
      };
    },
    end: () => (ends ? pool.end() : Promise.resolve()),
  };
}

/**
 * Opens PostgreSQL when DATABASE_URL is set, else the embedded PGlite in ENGRAM_DATA_DIR, which
 * only one process may hold: `command` names this one in the data dir's lock file.
 */
export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'preparedStatements' | 'pgNotify'>>,
  options: { command?: string } = {},
): Promise<Store> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle client's network error must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    // Statements run again and again are prepared once per connection (store/prepared.ts), unless
    // a transaction-mode pooler between us and PostgreSQL could not keep them.
    const names = new StatementNames(config.preparedStatements === false ? 0 : MAX_PREPARED);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namedPool(pool, names) }) });
    // LISTEN/NOTIFY between processes, unless a transaction-mode pooler in between could not keep a LISTEN.
    const signals = config.pgNotify === false ? null : new StoreSignals(db, { connectionString: config.databaseUrl });
    return {
      db,
      background: db,
      kind: 'postgres',
      signals,
      async close() {
        await signals?.close();
        await db.destroy();
      },
    };
  }
  // Loaded only for the embedded store (PGlite's protocol code).
  const { EmbeddedThread, poolConfigOf, recordThread } = await import('./embedded-store.js');
  let lock: { release(): void } | null = null;
  if (!config.dataDir.startsWith('memory://')) {
    await mkdir(config.dataDir, { recursive: true });
    lock = lockDataDir(config.dataDir, options.command ?? 'serve');
  }
  // PGlite runs on a thread of its own (store/embedded-thread.mjs), so that the WebAssembly
  // executing a statement never holds the thread answering requests. Durability (docs/deploy.md):
  // on Node, PGlite writes its files through the kernel with plain write(2) calls, and a commit
  // writes its WAL before its reply leaves the thread (synchronous_commit, pinned on there;
  // relaxedDurability, which would let a commit return before the files are written, off). So a
  // save answered 201 survives the process being killed (kill -9). What PGlite never does is
  // fsync (it runs with fsync off, and its file system has no fsync), so the last seconds of
  // writes can be lost when the machine itself loses power.
  const thread = new EmbeddedThread({
    dataDir: config.dataDir,
    sharedBuffers: EMBEDDED_SHARED_BUFFERS,
    resourceLimits: { maxYoungGenerationSizeMb: EMBEDDED_YOUNG_GENERATION_MB },
  });
  try {
    await thread.waitReady;
  } catch (error) {
    await thread.close().catch(() => {});
    lock?.release();
    throw error;
  }
  // PGlite has one connection: requests go ahead of learning and housekeeping waiting for it.
  const pool = new pg.Pool(poolConfigOf(thread) as pg.PoolConfig);
  // A client whose thread stopped is dropped from the pool; the error is the statement's.
  pool.on('error', () => {});
  const gate = new PriorityGate();
  // One set of names for the one connection, whoever holds it (store/prepared.ts).
  const names = new StatementNames();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: gatedPool(pool, gate, true, true, thread, names) }) });
  const background = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: gatedPool(pool, gate, false, false, thread, names) }),
  });
  shareStore(background, db);
  gates.set(db, gate);
  const store: Store = {
    db,
    background,
    kind: 'pglite',
    signals: null,
    async close() {
      try {
        await background.destroy();
        await db.destroy();
      } finally {
        try {
          await thread.close();
        } finally {
          lock?.release();
        }
      }
    },
  };
  recordThread(store, thread);
  return store;
}

/**
 * The embedded store's shared_buffers (PGlite's default: 128MB). Postgres touches all of it at
 * start, so it is resident from the first minute, and WebAssembly memory never shrinks. At 100k
 * memories a space (a 220 MB database), 16MB learned and searched for the same CPU time as 32 and
 * 128MB and kept `engram serve` 18 MB smaller than 32MB did (docs/benchmarks.md, "Scale" and
 * "Memory: the API on a thread of its own"). Pages outside it are read through the kernel's page
 * cache.
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

/**
 * The young generation of the embedded store's thread, in MB. Its JavaScript only moves
 * statements' bytes to and from PGlite (the database's own memory is WebAssembly memory, outside
 * the V8 heap), so V8's default nursery (two 16 MB semi-spaces) sat mostly idle yet resident;
 * 8 MB keeps its heap small at the same speed (docs/benchmarks.md, "Memory: where `engram
 * serve`'s resident memory goes").
 */
export const EMBEDDED_YOUNG_GENERATION_MB = 8;

const gates = new WeakMap<Db, PriorityGate>();

/**
 * How long the requests of `db`'s store have left its one connection alone, in milliseconds:
 * Infinity on PostgreSQL, where a request never waits for background work's connection.
 */
export function requestsQuietFor(db: Db): number {
  return gates.get(primaryOf(db))?.quietMs ?? Number.POSITIVE_INFINITY;
}

const primaries = new WeakMap<Db, Db>();

/** Marks `alias` as another way into `primary`'s store (what is kept per store is kept once). */
export function shareStore(alias: Db, primary: Db): void {
  primaries.set(alias, primary);
}

/** The store `db` leads into, as the per-store caches know it. */
export function primaryOf(db: Db): Db {
  return primaries.get(db) ?? db;
}
