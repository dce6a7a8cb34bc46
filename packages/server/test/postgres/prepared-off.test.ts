import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/database.js';
import { createTestDatabase } from '../setup/postgres.js';

// Behind a transaction-mode connection pooler a statement prepared on one server connection may be
// run on another, so ENGRAM_PREPARED_STATEMENTS=0 leaves every statement unnamed.

describe('ENGRAM_PREPARED_STATEMENTS=0', () => {
  it('names no statement, however often it runs, and answers as before', async () => {
    const database = await createTestDatabase();
    const store = await openStore(loadConfig({ DATABASE_URL: database.url, ENGRAM_PREPARED_STATEMENTS: '0' }));
    try {
      await store.db.connection().execute(async (connection) => {
        const answers: number[] = [];
        for (const value of [1, 2, 3]) {
          const { rows } = await sql<{ next: number }>`select ${value}::int + 50 as next`.execute(connection);
          answers.push(rows[0]!.next);
        }
        expect(answers).toEqual([51, 52, 53]);
        const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection);
        expect(rows.filter((row) => row.statement.includes('::int + 50 as next'))).toHaveLength(0);
      });
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('is read from the environment: on unless 0, false, no or off', () => {
    expect(loadConfig({}).preparedStatements).toBe(true);
    expect(loadConfig({ ENGRAM_PREPARED_STATEMENTS: '1' }).preparedStatements).toBe(true);
    for (const off of ['0', 'false', 'No', ' off ']) expect(loadConfig({ ENGRAM_PREPARED_STATEMENTS: off }).preparedStatements).toBe(false);
  });
});
