import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startTestServer } from './start.js';

/** Where the machine's PostgreSQL is; the suite makes and drops its own database there. */
export const ADMIN_URL = process.env.ENGRAM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Makes a fresh database on the machine's PostgreSQL; fails loudly when it cannot be reached. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `The PostgreSQL tests need a server at ${ADMIN_URL} (set ENGRAM_TEST_DATABASE_URL to change it): ${(error as Error).message}`,
    );
  }
  const name = `engram_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The API suite over the machine's PostgreSQL. */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase();
  const server = await startTestServer(project, { DATABASE_URL: database.url });
  project.provide('engramDatabaseUrl', database.url);
  return async () => {
    await server.close();
    await database.drop();
  };
}
