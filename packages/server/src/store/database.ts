import { mkdir } from 'node:fs/promises';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';

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

/** Opens PostgreSQL when DATABASE_URL is set, else the embedded PGlite in ENGRAM_DATA_DIR. */
export async function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Store> {
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
  if (!config.dataDir.startsWith('memory://')) await mkdir(config.dataDir, { recursive: true });
  const lite = await PGlite.create({ dataDir: config.dataDir, extensions: { pg_trgm } });
  const pool = new pg.Pool(createPgConfig(lite));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      await lite.close();
    },
  };
}
