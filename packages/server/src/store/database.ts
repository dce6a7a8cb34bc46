import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { lockDataDir } from './data-dir-lock.js';

// Counts and ids come back as numbers, not strings: none of ours pass 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** Tables are reached through raw SQL with Kysely's parameterising `sql` tag. */
export type Db = Kysely<any>;

/** An open store: the query interface and a way to close it. */
export interface Store {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL when DATABASE_URL is set, else the embedded PGlite in ENGRAM_DATA_DIR, which
 * only one process may hold: `command` names this one in the data dir's lock file.
 */
export async function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>, options: { command?: string } = {}): Promise<Store> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle client's network error must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let lock: { release(): void } | null = null;
  if (!config.dataDir.startsWith('memory://')) {
    await mkdir(config.dataDir, { recursive: true });
    lock = lockDataDir(config.dataDir, options.command ?? 'serve');
  }
  // Durability (docs/deploy.md): on Node, PGlite writes its files through the kernel with
  // plain write(2) calls, and a commit writes its WAL before it returns (synchronous_commit,
  // pinned on here; relaxedDurability, which would let a commit return before the files are
  // written, off). So a save answered 201 survives the process being killed (kill -9). What
  // PGlite never does is fsync (it runs with fsync off, and its file system has no fsync),
  // so the last seconds of writes can be lost when the machine itself loses power.
  let lite: InstanceType<typeof PGlite>;
  try {
    lite = await PGlite.create({ dataDir: config.dataDir, extensions: { pg_trgm }, relaxedDurability: false });
    await lite.exec('set synchronous_commit = on');
  } catch (error) {
    lock?.release();
    throw error;
  }
  const pool = new pg.Pool(createPgConfig(lite));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      try {
        await db.destroy();
        await lite.close();
      } finally {
        lock?.release();
      }
    },
  };
}
