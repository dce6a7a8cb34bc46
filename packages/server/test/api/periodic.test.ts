import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createApp } from '../../src/http/app.js';
import { cleanUp } from '../../src/jobs/housekeeping.js';
import type { PeriodicJob } from '../../src/jobs/periodic.js';
import { PeriodicRunner, registerPeriodic, slotOf } from '../../src/jobs/periodic.js';
import { createAccount, createAccountKey } from '../../src/store/account-repository.js';
import type { Store } from '../../src/store/database.js';
import { claimSlot } from '../../src/store/periodic-repository.js';
import { openOwnStore } from '../setup/own-server.js';
import { call } from './helpers.js';

let own: Awaited<ReturnType<typeof openOwnStore>>;
let store: Store;
const config = loadConfig({});

beforeAll(async () => {
  own = await openOwnStore();
  store = own.store;
});

afterAll(async () => {
  await own?.close();
});

/** A runner of one process of a pretend cluster, with its own jobs. */
const runner = (owner: string, jobs: PeriodicJob[]) =>
  new PeriodicRunner({ db: store.db, config, now: () => new Date() }, { owner, tickMs: 60_000, jobs });

describe('periodic jobs', () => {
  it('runs a job once per slot however many processes tick it', async () => {
    const runs: string[] = [];
    const shared: PeriodicJob = { name: `count-${Date.now()}`, everyMs: 3_600_000, run: async () => {} };
    const processes = ['api-1', 'api-2', 'worker-1', 'worker-2'].map((owner) =>
      runner(owner, [{ ...shared, run: async () => void runs.push(owner) }]),
    );
    await Promise.all(processes.map((process) => process.tick()));
    await Promise.all(processes.map((process) => process.tick()));
    expect(runs).toHaveLength(1);
    const { rows } = await sql<any>`select owner, finished_at, error from periodic_runs where name = ${shared.name}`.execute(store.db);
    expect(rows).toHaveLength(1);
    expect(rows[0].owner).toBe(runs[0]);
    expect(rows[0].finished_at).not.toBeNull();
    expect(rows[0].error).toBeNull();
  });

  it("keeps a failed run's error on its row, and runs the next slot again", async () => {
    const name = `failing-${Date.now()}`;
    const errors: unknown[] = [];
    const quiet = new PeriodicRunner(
      { db: store.db, config, now: () => new Date() },
      {
        owner: 'api-1',
        tickMs: 60_000,
        jobs: [{ name, everyMs: 3_600_000, run: () => Promise.reject(new Error('the disk is full')) }],
        onError: (error) => errors.push(error),
      },
    );
    await quiet.tick();
    const { rows } = await sql<any>`select error from periodic_runs where name = ${name}`.execute(store.db);
    expect(rows.map((row: { error: string }) => row.error)).toEqual(['the disk is full']);
    expect(errors).toHaveLength(1);
  });

  it('claims a slot whose run never finished again only once it is stale', async () => {
    const name = `stale-${Date.now()}`;
    expect(await claimSlot(store.db, name, '1', 'died', 60_000)).toBe(true);
    expect(await claimSlot(store.db, name, '1', 'other', 60_000)).toBe(false);
    await sql`update periodic_runs set started_at = now() - interval '2 minutes' where name = ${name}`.execute(store.db);
    expect(await claimSlot(store.db, name, '1', 'other', 60_000)).toBe(true);
    await sql`update periodic_runs set finished_at = now(), started_at = now() - interval '2 minutes' where name = ${name}`.execute(
      store.db,
    );
    expect(await claimSlot(store.db, name, '1', 'third', 60_000)).toBe(false);
  });

  it('puts a daily job in the slot of the last time of day passed', () => {
    const job: PeriodicJob = { name: 'nightly', dailyAt: '03:30', run: async () => {} };
    expect(slotOf(job, new Date('2026-11-23T03:29:59Z'))).toBe('2026-11-22');
    expect(slotOf(job, new Date('2026-11-23T03:30:00Z'))).toBe('2026-11-23');
    expect(slotOf({ name: 'often', everyMs: 60_000, run: async () => {} }, new Date(120_500))).toBe('2');
  });

  it('refuses a job with neither or both schedules, or a time of day out of range', () => {
    expect(() => registerPeriodic({ name: 'none', run: async () => {} })).toThrow(/everyMs or dailyAt/);
    expect(() => registerPeriodic({ name: 'both', everyMs: 10, dailyAt: '01:00', run: async () => {} })).toThrow(/everyMs or dailyAt/);
    expect(() => registerPeriodic({ name: 'late', dailyAt: '24:00', run: async () => {} })).toThrow(/HH:MM/);
  });

  it('runs registered jobs beside the built-in ones', async () => {
    const name = `registered-${Date.now()}`;
    let ran = 0;
    registerPeriodic({ name, everyMs: 3_600_000, run: async () => void (ran += 1) });
    await runner('api-1', []).tick();
    await runner('api-2', []).tick();
    expect(ran).toBe(1);
  });

  it('cleans up stored idempotent answers after a day, and only those', async () => {
    const account = await createAccount(store.db, `cleanup-${Date.now()}`);
    const apiKey = await createAccountKey(store.db, account.id);
    await sql`insert into idempotency_keys (account_id, key_id, key, fingerprint, created_at) values
      (${account.id}, ${apiKey.id}, 'old', 'f', now() - interval '25 hours'), (${account.id}, ${apiKey.id}, 'new', 'f', now() - interval '23 hours')`.execute(
      store.db,
    );
    const removed = await cleanUp(store.db);
    expect(removed.idempotencyKeys).toBe(1);
    const { rows } = await sql<any>`select key from idempotency_keys where account_id = ${account.id}`.execute(store.db);
    expect(rows.map((row: { key: string }) => row.key)).toEqual(['new']);
  });
});

describe('readiness', () => {
  it('answers /readyz without a key: 200 while the store and queue answer', async () => {
    const reply = await call('GET', '/readyz', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, stopping: false, store: { ok: true }, queue: { ok: true } });
  });

  it('answers 503 while the process stops, so balancers send it no more', async () => {
    const app = createApp({ db: store.db, config, stopping: () => true });
    const reply = await app.request('/readyz');
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ ok: false, stopping: true, store: { ok: true }, queue: { ok: true } });
  });
});
