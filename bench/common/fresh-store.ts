import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** The PostgreSQL benches make their own databases on: the machine's test database by default. */
export const ADMIN_URL = process.env.ENGRAM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A store made for one bench run: Engram's settings that point at it, and how to remove it. */
export interface FreshStore {
  /** ENGRAM_DATA_DIR (embedded) or DATABASE_URL (PostgreSQL). */
  env: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * A fresh embedded data directory (in the system's temporary directory) or a fresh PostgreSQL
 * database (dropped first if a run before left it), named after `name` and this process.
 */
export async function freshStore(kind: 'pglite' | 'postgres', name: string): Promise<FreshStore> {
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(join(tmpdir(), `engram-${name}-`));
    return { env: { ENGRAM_DATA_DIR: dataDir }, remove: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const database = `engram_${name}_${process.pid}`;
  await admin(`drop database if exists ${database}`);
  await admin(`create database ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return { env: { DATABASE_URL: url.toString() }, remove: () => admin(`drop database if exists ${database}`) };
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
