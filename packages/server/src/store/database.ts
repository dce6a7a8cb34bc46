import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { lockDataDir } from './data-dir-lock.js';
import type { EmbeddedThread, ThreadConnection } from './embedded-store.js';
import { MAX_PREPARED, namedPool, namedQuery, StatementNames } from './prepared.js';
import type { Database } from './schema/tables.js';
import { StoreSignals } from './signals.js';
import { BEGINS_TRANSACTION, type StatementOrder } from './statement-order.js';

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
   * one session everything shares, background work takes one turn at a time and a request's
   * statement or transaction waiting goes ahead of any background work's waiting
   * (store/statement-order.ts); on PostgreSQL it is `db` itself.
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
 * One at a time, in the order they asked: background work's turns on the embedded store
 * (learning, housekeeping), so that at most one of its statements or transactions is ever ahead
 * of a request's, as on a store with one connection.
 */
class Turns {
  #taken = false;
  readonly #waiting: (() => void)[] = [];

  take(): Promise<void> {
    if (!this.#taken) {
      this.#taken = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#taken = false;
  }
}

const quieted = new WeakSet<pg.PoolClient>();

/**
 * A pool lending the embedded store's connections to requests (`urgent`) or to background work,
 * in the order of `thread.order` (store/statement-order.ts): a statement is posted to the store's
 * thread as soon as it is asked, unless a transaction holds the session; a transaction claims
 * the session at its `begin` and lets go once the session says it is over. Background work takes
 * its `turns` one at a time.
 */
function orderedPool(
  pool: pg.Pool,
  thread: EmbeddedThread,
  urgent: boolean,
  ends: boolean,
  turns: Turns,
  names: StatementNames,
): PostgresPool {
  const { order } = thread;
  return {
    async connect(): Promise<PostgresPoolClient> {
      if (urgent) order.touch();
      else await turns.take();
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
        if (!urgent) turns.give();
        throw error;
      }
      // The connection a client of `poolConfigOf`'s pool talks through.
      const connection = (client as unknown as { connection: ThreadConnection }).connection;
      connection.urgent = urgent;
      const named = namedQuery(client, names, connection.prepareSuffix);
      let claimed = false;
      let released = false;
      const letGo = () => {
        client.release();
        if (urgent) order.touch();
        else turns.give();
      };
      const query = (async (text: unknown, values?: readonly unknown[]) => {
        if (!claimed && typeof text === 'string' && BEGINS_TRANSACTION.test(text)) {
          await order.claim(connection, urgent);
          claimed = true;
        }
        try {
          return await (named as (text: unknown, values?: readonly unknown[]) => Promise<unknown>)(text, values);
        } finally {
          // Committed or rolled back (or never begun): the session is free for the others.
          if (claimed && connection.transactionStatus === 'I') {
            claimed = false;
            order.release(connection);
          }
        }
      }) as unknown as PostgresPoolClient['query'];
      return {
        query,
        release() {
          if (released) return;
          released = true;
          if (!claimed) return letGo();
          // Let go inside a transaction (its end failed): rolled back before anyone else's statement runs.
          void client
            .query('rollback')
            .catch(() => {})
            .finally(() => {
              order.release(connection);
              letGo();
            });
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
  // PGlite is one session: several connections post to it, in the order `thread.order` keeps.
  const pool = new pg.Pool(poolConfigOf(thread));
  // A client whose thread stopped is dropped from the pool; the error is the statement's.
  pool.on('error', () => {});
  // One set of names for the session, each connection preparing its own (store/prepared.ts).
  const names = new StatementNames();
  const turns = new Turns();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: orderedPool(pool, thread, true, true, turns, names) }) });
  const background = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: orderedPool(pool, thread, false, false, turns, names) }),
  });
  shareStore(background, db);
  orders.set(db, thread.order);
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

const orders = new WeakMap<Db, StatementOrder>();

/**
 * How long the requests of `db`'s store have left its one session alone, in milliseconds:
 * Infinity on PostgreSQL, where a request never waits for background work's connection.
 */
export function requestsQuietFor(db: Db): number {
  return orders.get(primaryOf(db))?.quietMs ?? Number.POSITIVE_INFINITY;
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
