import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../packages/server/test/setup/postgres.js';
import type { EngramProcess } from './engram-process.js';
import { killHard, noteOf, pause, save, startEngram, stopGracefully } from './engram-process.js';

// Two API processes (`engram serve --no-workers`) and two worker processes (`engram worker`)
// on one fresh PostgreSQL database: a burst of saves while a worker and an API process are
// killed with SIGKILL and started again.
const KEY = 'egk_cluster_owner_key_0123456789abcdefghijklmn';
const SAVES = 2_000;
const SPACES = ['north', 'south', 'east', 'west'];
const LEASE_SECONDS = 5;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: pg.Client;
let env: Record<string, string>;
const running = new Set<EngramProcess>();

async function start(args: string[]): Promise<EngramProcess> {
  const engram = await startEngram(args, env);
  running.add(engram);
  void engram.exited.then(() => running.delete(engram));
  return engram;
}

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  env = {
    DATABASE_URL: database.url,
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_ACCOUNT_RPM: '1000000',
    ENGRAM_POLL_MS: '100',
    ENGRAM_LEASE_SECONDS: String(LEASE_SECONDS),
    ENGRAM_HEARTBEAT_MS: '1000',
    ENGRAM_SHUTDOWN_MS: '5000',
    ENGRAM_LEARNER_THREADS: '1',
  };
});

afterAll(async () => {
  await Promise.all([...running].map((engram) => stopGracefully(engram)));
  await admin?.end().catch(() => {});
  await database?.drop();
});

/** Ids of the jobs a process's workers hold now. */
async function jobsHeldBy(pid: number): Promise<number[]> {
  const { rows } = await admin.query<{ id: number }>(`select id from jobs where locked_by like $1`, [`%:${pid}:%`]);
  return rows.map((row) => row.id);
}

describe('a cluster of two API processes and two workers on PostgreSQL', () => {
  it("keeps every acknowledged save, learns each once, and takes a killed worker's jobs over", async () => {
    // The first process makes the schema and the owner; the others start beside it.
    const apiA = await start(['serve', '--no-workers']);
    await admin.connect();
    let apiB = await start(['serve', '--no-workers']);
    let workerOne = await start(['worker', '--concurrency', '2']);
    await start(['worker', '--concurrency', '2']);

    const acknowledged = new Set<string>();
    const refused: number[] = [];
    let next = 0;
    let sent = 0;
    const apis = () => [apiA.url, apiB.url];

    // 16 clients, each sending its saves in turn to one API process, then the other. A save whose
    // connection broke (its process was killed) is sent again to the other process.
    async function client(): Promise<void> {
      for (;;) {
        const index = next++;
        if (index >= SAVES) return;
        const body = { text: noteOf(index), space: SPACES[index % SPACES.length] };
        for (let attempt = 0; ; attempt += 1) {
          const base = apis()[(index + attempt) % 2]!;
          try {
            const reply = await save(base, KEY, body);
            sent += 1;
            if (reply.id) acknowledged.add(reply.id);
            else refused.push(reply.status);
            break;
          } catch (error) {
            if (attempt > 20) throw error;
            await pause(100);
          }
        }
      }
    }

    async function chaos(): Promise<{ takeOverMs: number[]; lastRestart: number }> {
      // Mid-burst, worker one is killed while it holds a job; it comes back two seconds later.
      while (acknowledged.size < SAVES * 0.25) await pause(20);
      let held: number[] = [];
      while (!(held = await jobsHeldBy(workerOne.pid)).length) await pause(10);
      const deadPid = workerOne.pid;
      await killHard(workerOne);
      const killedAt = Date.now();
      const takeOverMs = new Map<number, number>();
      const watch = (async () => {
        while (takeOverMs.size < held.length && Date.now() - killedAt < 120_000) {
          const { rows } = await admin.query<{ id: number; locked_by: string | null }>(
            `select id, locked_by from jobs where id = any($1::int[])`,
            [held],
          );
          const now = Date.now();
          for (const id of held) {
            if (takeOverMs.has(id)) continue;
            const row = rows.find((candidate) => candidate.id === id);
            // Taken over: another worker holds it, or it was learned and removed.
            if (!row || (row.locked_by !== null && !row.locked_by.includes(`:${deadPid}:`))) takeOverMs.set(id, now - killedAt);
          }
          await pause(50);
        }
      })();
      await pause(2_000);
      workerOne = await start(['worker', '--concurrency', '2']);
      // Later, API process B is killed mid-request and started again.
      while (acknowledged.size < SAVES * 0.5) await pause(20);
      await killHard(apiB);
      await pause(1_000);
      apiB = await start(['serve', '--no-workers']);
      const lastRestart = Date.now();
      await watch;
      return { takeOverMs: [...takeOverMs.values()], lastRestart };
    }

    const [{ takeOverMs, lastRestart }] = await Promise.all([chaos(), Promise.all(Array.from({ length: 16 }, () => client()))]);
    console.log(
      `[cluster] a killed worker's ${takeOverMs.length} job(s) were taken over ${takeOverMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after its death (lease ${LEASE_SECONDS} s)`,
    );
    expect(sent).toBe(SAVES);
    expect(refused).toEqual([]);
    expect(acknowledged.size).toBe(SAVES);

    // Every acknowledged source is stored.
    const ids = [...acknowledged];
    const stored = await admin.query<{ count: number }>(`select count(*)::int as count from sources where id = any($1::text[])`, [ids]);
    expect(stored.rows[0]!.count).toBe(SAVES);

    // Every source is learned within a minute of the last restart.
    let unfinished = -1;
    while (Date.now() - lastRestart < 60_000) {
      const { rows } = await admin.query<{ count: number }>(`select count(*)::int as count from sources where status <> 'finished'`);
      unfinished = rows[0]!.count;
      if (unfinished === 0) break;
      await pause(500);
    }
    const { rows: statuses } = await admin.query(`select status, count(*)::int as count from sources group by status order by status`);
    console.log(`[cluster] ${((Date.now() - lastRestart) / 1000).toFixed(1)} s after the last restart: ${JSON.stringify(statuses)}`);
    expect.soft(statuses).toEqual([{ status: 'finished', count: expect.any(Number) }]);
    expect.soft(unfinished).toBe(0);
    // However long it took, learning ends with every source finished (the checks below need it).
    while (unfinished > 0 && Date.now() - lastRestart < 400_000) {
      await pause(1_000);
      const { rows } = await admin.query<{ count: number }>(`select count(*)::int as count from sources where status <> 'finished'`);
      unfinished = rows[0]!.count;
    }
    console.log(`[cluster] every source finished ${((Date.now() - lastRestart) / 1000).toFixed(1)} s after the last restart`);
    expect(unfinished).toBe(0);

    // Each fact is one memory: no duplicate, none missing for a stored save.
    const { rows: duplicated } = await admin.query(`
      select space, text, count(*)::int as count from memories where status = 'current' group by space, text having count(*) > 1`);
    expect(duplicated).toEqual([]);
    const { rows: counts } = await admin.query<{ memories: number; sources_learned: number }>(`
      select (select count(*)::int from memories where status = 'current' and not raw) as memories,
             (select count(distinct source_id)::int from memory_sources) as sources_learned`);
    expect(counts[0]!.sources_learned).toBeGreaterThanOrEqual(SAVES);
    expect(counts[0]!.memories).toBeGreaterThanOrEqual(SAVES);
    expect(await admin.query(`select count(*)::int as count from jobs`).then((result) => result.rows[0].count)).toBe(0);

    // The killed worker's jobs were taken over.
    expect(takeOverMs.length).toBeGreaterThan(0);
    expect(Math.max(...takeOverMs)).toBeLessThan(120_000);
  });

  it('holds a limited key to its rpm across both API processes', async () => {
    const [first, second] = [...running].filter((engram) => engram.url);
    expect(second).toBeDefined();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const minute = Math.floor(Date.now() / 60_000);
      const made = await fetch(`${first!.url}/v1/keys`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ space: `rate-${attempt}-${Date.now()}`, rpm: 5 }),
      });
      const { key } = (await made.json()) as { key: string };
      const statuses: number[] = [];
      for (let index = 0; index < 8; index += 1) {
        const base = index % 2 ? second!.url : first!.url;
        statuses.push((await fetch(`${base}/v1/sources`, { headers: { Authorization: `Bearer ${key}` } })).status);
      }
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      return;
    }
    throw new Error('every attempt straddled a minute');
  });

  it('stops every process gracefully on SIGTERM', async () => {
    const codes = await Promise.all([...running].map((engram) => stopGracefully(engram)));
    expect(codes.length).toBe(4);
    expect(codes).toEqual([0, 0, 0, 0]);
    const { rows } = await admin.query(`select count(*)::int as count from jobs where locked_at is not null`);
    expect(rows[0].count).toBe(0);
  });
});
