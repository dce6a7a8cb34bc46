import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import { openStore } from '../../src/store/database.js';
import { createTestDatabase } from '../setup/postgres.js';

// The store as `engram serve` opens it prepares a statement it runs again: named on its second
// use, parsed once on the connection, and answering as before with each call's own values.

let store: Store;
let drop = async () => {};

beforeAll(async () => {
  if (inject('engramStore') === 'postgres') {
    const database = await createTestDatabase();
    store = await openStore(loadConfig({ DATABASE_URL: database.url }));
    drop = database.drop;
  } else {
    store = await openStore(loadConfig({ ENGRAM_DATA_DIR: 'memory://' }));
  }
});

afterAll(async () => {
  await store?.close();
  await drop();
});

describe('prepared statements', () => {
  it('prepares a statement run again on its connection, each call with its own values', async () => {
    await store.db.connection().execute(async (connection) => {
      const answers: number[] = [];
      for (const value of [1, 2, 3]) {
        const { rows } = await sql<{ next: number }>`select ${value}::int + 40 as next`.execute(connection);
        answers.push(rows[0]!.next);
      }
      expect(answers).toEqual([41, 42, 43]);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection);
      expect(rows.filter((row) => row.statement.includes('::int + 40 as next'))).toHaveLength(1);
    });
  });

  it('runs a statement of several parts without parameters as before (never named)', async () => {
    await sql.raw('select 1; select 2').execute(store.db);
    await sql.raw('select 1; select 2').execute(store.db);
    await store.db.connection().execute(async (connection) => {
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection);
      expect(rows.some((row) => row.statement.includes('select 2'))).toBe(false);
    });
  });
});
