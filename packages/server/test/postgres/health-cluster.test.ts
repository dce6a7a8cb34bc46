import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { createTestDatabase } from '../setup/postgres.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const KEY = 'egk_health_cluster_key_0123456789abcdefghijkl';
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Starts the built `engram serve` on the database, its nightly test due at once. */
function serve(databaseUrl: string): Promise<void> {
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      ENGRAM_PORT: '0',
      ENGRAM_WORKERS: '1',
      ENGRAM_POLL_MS: '50',
      ENGRAM_HEALTH_TIME: '00:00',
      ENGRAM_HEALTH_TZ: 'UTC',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on/.test(output)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`engram serve exited with ${code}: ${output}`)));
  });
}

describe('the nightly memory test on a cluster', () => {
  it('runs once for a space when two processes share one PostgreSQL', async () => {
    if (!existsSync(cli)) throw new Error(`Build first (npm run build): ${cli} is missing`);
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    // Learn a note, then make it yesterday's: the nightly test is about what was read the day before.
    const server = await startServer(
      loadConfig({
        DATABASE_URL: database.url,
        ENGRAM_PORT: '0',
        ENGRAM_BOOTSTRAP_KEY: KEY,
        ENGRAM_POLL_MS: '50',
        ENGRAM_HEALTH_TIME: '23:59',
      }),
    );
    const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const saved = await (
      await fetch(`${server.url}/v1/memories`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          space: 'lena',
          text: 'Lena Park moved to Bergen in March 2026. Omar Haddad started at the bakery in June 2025.',
        }),
      })
    ).json();
    const learned = await (await fetch(`${server.url}/v1/sources/${saved.source.id}?wait=20&space=lena`, { headers })).json();
    expect(learned.source.status).toBe('finished');
    await server.close();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    await client.query(`update memories set created_at = created_at - interval '1 day'`);
    // The set-up server ran the periodic jobs too and holds this minute's slot of the nightly check:
    // the cluster under test starts as a fresh one would, with no slot taken.
    await client.query('delete from periodic_runs');

    await Promise.all([serve(database.url), serve(database.url)]);
    let rows: { claimed_by: string; finished_at: Date | null; asked: number; health: number | null }[] = [];
    for (let attempt = 0; attempt < 300; attempt += 1) {
      ({ rows } = await client.query(`select claimed_by, finished_at, asked, health from health_runs where space = 'lena' and nightly`));
      if (rows.length && rows.every((row) => row.finished_at !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Both processes have looked by now (each looks on its first idle tick); give the slower one a moment more.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    ({ rows } = await client.query(`select claimed_by, finished_at, asked, health from health_runs where space = 'lena' and nightly`));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.finished_at).not.toBeNull();
    expect(rows[0]!.asked).toBeGreaterThanOrEqual(2);
    expect(rows[0]!.health).toBeGreaterThanOrEqual(0);
    expect(rows[0]!.health).toBeLessThanOrEqual(1);
  }, 60_000);
});
