import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../store/account-repository.js';
import type { Store } from '../store/database.js';
import { openStore } from '../store/database.js';
import { migrate } from '../store/migrations.js';
import type { RequestLogEntry } from '../store/request-log-repository.js';
import { insertRequestLog, listRequests, requestLogInsert } from '../store/request-log-repository.js';
import { RequestLog } from './request-log.js';

let store: Store;
let accountId = 0;

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
  await migrate(store.db);
  accountId = (await createAccount(store.db, 'log-owner')).id;
}, 120_000);
afterAll(() => store.close());

const entry = (requestId: string, at = new Date()): RequestLogEntry => ({
  accountId,
  at,
  method: 'GET',
  route: '/v1/memories',
  status: 200,
  space: 'sam',
  keyPrefix: 'egk_abcd',
  requestId,
  durationMs: 3,
  errorType: null,
});
const stored = async () => (await listRequests(store.db, accountId, { limit: 1_000 })).map((row) => row.request_id);

describe('RequestLog', () => {
  it('writes nothing until a flush, then every queued call in one batch', async () => {
    const log = new RequestLog(store.db, { days: 14, flushEveryMs: 60_000 });
    log.add(entry('req_queued_1'));
    log.add(entry('req_queued_2'));
    expect(await stored()).not.toContain('req_queued_1');
    await log.flush();
    expect(await stored()).toEqual(expect.arrayContaining(['req_queued_1', 'req_queued_2']));
    await log.close();
  });

  it('flushes on its own when a batch is full, and on close', async () => {
    const log = new RequestLog(store.db, { days: 14, flushEveryMs: 60_000, batchRows: 3 });
    for (const index of [1, 2, 3]) log.add(entry(`req_full_${index}`));
    log.add(entry('req_after_full'));
    await log.flush(); // waits for the batch the third call started, then writes the fourth
    expect(await stored()).toEqual(expect.arrayContaining(['req_full_1', 'req_full_2', 'req_full_3', 'req_after_full']));
    log.add(entry('req_at_close'));
    await log.close();
    expect(await stored()).toContain('req_at_close');
    log.add(entry('req_after_close'));
    await log.flush();
    expect(await stored()).not.toContain('req_after_close');
  });

  it('writes any count of calls with one statement text, each call as given', async () => {
    const one = requestLogInsert([entry('req_text_1')]).compile(store.db);
    const three = requestLogInsert([entry('req_text_2'), entry('req_text_3'), entry('req_text_4')]).compile(store.db);
    expect(three.sql).toBe(one.sql);
    const failed = { ...entry('req_text_5'), space: null, status: 429, errorType: 'rate_limited', durationMs: 41 };
    await insertRequestLog(store.db, [entry('req_text_6'), failed]);
    const rows = await listRequests(store.db, accountId, { limit: 1_000 });
    const written = rows.filter((row) => row.request_id === 'req_text_5' || row.request_id === 'req_text_6');
    // Newest first: the entries keep the order they were given in.
    expect(written.map((row) => row.request_id)).toEqual(['req_text_5', 'req_text_6']);
    expect(written[0]).toMatchObject({ space: null, status: 429, error_type: 'rate_limited', duration_ms: 41 });
  });

  it('deletes calls older than its days in the flush loop', async () => {
    const old = new Date(Date.now() - 20 * 86_400_000);
    const recent = new Date(Date.now() - 2 * 86_400_000);
    const seed = new RequestLog(store.db, { days: 3_650 });
    seed.add(entry('req_twenty_days_old', old));
    seed.add(entry('req_two_days_old', recent));
    await seed.close();
    expect(await stored()).toEqual(expect.arrayContaining(['req_twenty_days_old', 'req_two_days_old']));
    const log = new RequestLog(store.db, { days: 14 });
    log.add(entry('req_today'));
    await log.close();
    const left = await stored();
    expect(left).not.toContain('req_twenty_days_old');
    expect(left).toEqual(expect.arrayContaining(['req_two_days_old', 'req_today']));
    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from request_log where at < now() - interval '14 days'`.execute(store.db);
    expect(rows[0]!.count).toBe(0);
  });
});
