import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { admissionGroupsOf } from '../../src/http/admission.js';
import { createApp } from '../../src/http/app.js';
import { RequestLog } from '../../src/http/request-log.js';
import { periodOf } from '../../src/meter/usage.js';
import { save } from '../../src/operations/save.js';
import { createAccount, createAccountKey, hashKey } from '../../src/store/account-repository.js';
import type { Database, Db } from '../../src/store/database.js';
import { createLimitedKey } from '../../src/store/key-repository.js';
import { migrate } from '../../src/store/migrations.js';
import { addLearnedTokens, usageSnapshot } from '../../src/store/usage-repository.js';
import { createTestDatabase } from '../setup/postgres.js';
import { freshSpace } from './helpers.js';

// What one save costs the store, counted statement by statement (every round trip: begin and
// commit too) through the store's query log, on the store of the project running it. A save is
// the keyed call's one statement (key, rate, usage) and, on PostgreSQL, one short transaction
// (space and source in one statement, the job in another); on the embedded store the space, the
// source and the job are one statement on its own (operations/save.ts `oneStatementOf`), and calls
// that come together are admitted in one statement (http/admission.ts). A batch costs the same
// whatever its size; the usage headers and the save's own judgement use the usage read with the
// key. Counted, never timed.

const statements: string[] = [];
let counting = false;
let db: Db;
let close: () => Promise<void>;
let app: ReturnType<typeof createApp>;
let log: RequestLog;
/** The project's store: the embedded one (PGlite) or PostgreSQL, as the configuration says. */
const embedded = inject('engramStore') !== 'postgres';
let config = loadConfig({ ENGRAM_PLAN_FREE_TOKENS: '1000', ENGRAM_PLAN_PRO_TOKENS: '1000' });

beforeAll(async () => {
  const logQuery = (event: { query: { sql: string } }) => {
    if (counting) statements.push(event.query.sql.replace(/\s+/g, ' ').trim());
  };
  if (inject('engramStore') === 'postgres') {
    const database = await createTestDatabase();
    config = { ...config, databaseUrl: database.url };
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    // Dropping the test database ends any connection still open; that is no test's failure.
    pool.on('error', () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: logQuery });
    close = async () => {
      await db.destroy();
      await database.drop();
    };
  } else {
    const lite = await PGlite.create({ dataDir: 'memory://', extensions: { pg_trgm } });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool(createPgConfig(lite)) }), log: logQuery });
    close = async () => {
      await db.destroy();
      await lite.close();
    };
  }
  await migrate(db);
  // The request log writes only when flushed: never within a counted call.
  log = new RequestLog(db, { days: 30, flushEveryMs: 3_600_000, batchRows: 1_000_000 });
  app = createApp({ db, config, requestLog: log });
});

afterAll(async () => {
  await log?.close();
  await close?.();
});

beforeEach(() => {
  statements.length = 0;
});

async function account() {
  const { id } = await createAccount(db, `saves-${Math.random()}`);
  const { key } = await createAccountKey(db, id);
  return { id, key };
}

/** Calls the app in process and returns the statements the call ran. */
async function counted(path: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  statements.length = 0;
  counting = true;
  try {
    const response = await app.request(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { response, body: (await response.json()) as any, statements: [...statements] };
  } finally {
    counting = false;
  }
}

async function get(path: string, key: string): Promise<any> {
  const response = await app.request(path, { headers: { Authorization: `Bearer ${key}` } });
  return response.json();
}

const usageHeaders = (response: Response) =>
  Object.fromEntries(
    ['Plan', 'State', 'Learned-Tokens', 'Included-Tokens', 'Waiting-Tokens', 'Answers', 'Included-Answers'].map((name) => [
      name,
      response.headers.get(`X-Memory-Usage-${name}`),
    ]),
  );

describe('statements of a save', () => {
  it('saves a note in five on PostgreSQL (the keyed call, then begin, space and source, job, commit), in two on the embedded store', async () => {
    const { key } = await account();
    const space = freshSpace();
    const saved = await counted('/v1/memories', key, { text: 'Ilsa keeps her bicycle in the blue shed.', space });
    expect(saved.response.status).toBe(201);
    expect(saved.statements.map((statement) => statement.split(' ')[0])).toEqual(
      embedded ? ['with', 'with'] : ['with', 'begin', 'with', 'insert', 'commit'],
    );
    if (embedded) expect(saved.statements[1]).toMatch(/ insert into sources .* insert into jobs /);
    // A call alone is admitted by the statement made for one key (http/admission.ts).
    expect(saved.statements[0]).not.toContain('unnest');
    // The usage is read once, with the key.
    expect(saved.statements.filter((statement) => statement.includes('usage_counters'))).toHaveLength(1);
    // The answer is the source as it is stored.
    const stored = await get(`/v1/sources/${saved.body.source.id}?space=${space}`, key);
    expect(saved.body.source).toEqual({ ...stored.source, status: 'queued' });
    expect(saved.body.source).toMatchObject({ status: 'queued', memories: 0, attempts: 0, retry_at: null, learned_at: null });
  });

  it('saves a second note into an existing space in as many', async () => {
    const { key } = await account();
    const space = freshSpace();
    await counted('/v1/memories', key, { text: 'Ilsa keeps her bicycle in the blue shed.', space });
    const again = await counted('/v1/memories', key, { text: 'Ilsa painted the shed green in May.', space });
    expect(again.response.status).toBe(201);
    expect(again.statements).toHaveLength(embedded ? 2 : 5);
  });

  it('adds only the claim and the kept answer with an Idempotency-Key, and replays without saving', async () => {
    const { key } = await account();
    const body = { text: 'Orrin sold his kayak to a neighbour.', space: freshSpace() };
    const first = await counted('/v1/memories', key, body, { 'Idempotency-Key': 'save-once' });
    expect(first.response.status).toBe(201);
    expect(first.statements).toHaveLength(embedded ? 4 : 7);
    const replay = await counted('/v1/memories', key, body, { 'Idempotency-Key': 'save-once' });
    expect(replay.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.statements.some((statement) => statement.startsWith('insert into jobs'))).toBe(false);
  });

  it('saves a batch in as many statements as one save, whatever its size and spaces', async () => {
    const { key } = await account();
    const [space, other] = [freshSpace(), freshSpace()];
    const items = [
      { text: 'Pim grows tomatoes.' },
      { text: 'Pim has a grey cat.', space: other },
      { text: 'Pim works at the library.' },
      { title: 'nothing to save' },
    ];
    const saved = await counted('/v1/memories/batch', key, { items, space });
    expect(saved.response.status).toBe(202);
    expect(saved.body).toMatchObject({ added: 3, failed: 1 });
    expect(saved.statements).toHaveLength(embedded ? 2 : 5);
    expect(saved.body.results.map((row: { index: number; ok: boolean }) => [row.index, row.ok])).toEqual([
      [0, true],
      [1, true],
      [2, true],
      [3, false],
    ]);
    // Each answer is its source as stored, in its own space.
    for (const [index, inSpace] of [
      [0, space],
      [1, other],
      [2, space],
    ] as const) {
      const source = saved.body.results[index].source;
      const stored = await get(`/v1/sources/${source.id}?space=${inSpace}`, key);
      expect(source).toEqual({ ...stored.source, status: 'queued' });
    }
    const listed = await get(`/v1/sources?space=${space}`, key);
    expect(listed.sources.map((source: { id: string }) => source.id).sort()).toEqual(
      [saved.body.results[0].source.id, saved.body.results[2].source.id].sort(),
    );
  });

  it('stores sources with the same statement texts whatever their count and spaces, so the store plans them once', async () => {
    const { key } = await account();
    const [space, other, third] = [freshSpace(), freshSpace(), freshSpace()];
    const one = await counted('/v1/memories', key, { text: 'Ines keeps bees.', space });
    const many = await counted('/v1/memories/batch', key, {
      space,
      items: [
        { text: 'Ines keeps bees on the roof.' },
        { text: 'Ines sells honey in May.', space: other },
        { text: 'Ines rides a red bicycle.', space: third },
        { text: 'Ines has two hives.', space: other },
      ],
    });
    expect(many.body).toMatchObject({ added: 4, failed: 0 });
    // The keyed call's statement aside (a single call's differs from a group's), what stores the
    // sources and their jobs is the same text for one source in one space and four in three.
    const storing = (statements: string[]) =>
      statements.filter((text) => /insert into sources/.test(text) || /insert into jobs/.test(text));
    expect(storing(one.statements).length).toBeGreaterThan(0);
    expect(storing(many.statements)).toEqual(storing(one.statements));
    for (const [index, inSpace] of [
      [1, other],
      [2, third],
    ] as const) {
      const stored = await get(`/v1/sources/${many.body.results[index].source.id}?space=${inSpace}`, key);
      expect(stored.source).toMatchObject({ status: 'queued', kind: 'note' });
    }
  });

  it('shows the usage as after the save without reading it again: a save kept waiting counts at once', async () => {
    const { id, key } = await account();
    const space = freshSpace();
    // The plan is used up: saves are kept waiting (and searchable), their tokens shown as waiting.
    await addLearnedTokens(db, { accountId: id, space }, periodOf(new Date()).start, 5_000);
    const saved = await counted('/v1/memories', key, { text: 'Ilsa keeps her bicycle in the blue shed.', space });
    expect(saved.response.status).toBe(201);
    expect(saved.body.source.status).toBe('waiting');
    expect(saved.statements.filter((statement) => statement.includes('usage_counters'))).toHaveLength(1);
    const usage = await get('/v1/usage', key);
    expect(usage.waiting_tokens).toBe(100);
    const headers = usageHeaders(saved.response);
    expect(headers['Waiting-Tokens']).toBe(String(usage.waiting_tokens));
    expect(headers.State).toBe(usage.state);
    // Read again by the next call, the figures are the same as the save's answer showed.
    const next = await app.request('/v1/usage', { headers: { Authorization: `Bearer ${key}` } });
    expect(usageHeaders(next)).toEqual(headers);
  });

  it("shows a limited key its space's share after a save kept waiting, the account's figures apart", async () => {
    const { id, key } = await account();
    const space = freshSpace();
    await addLearnedTokens(db, { accountId: id, space: 'elsewhere' }, periodOf(new Date()).start, 5_000);
    // Waiting tokens elsewhere in the account, which the limited key's share leaves out.
    await counted('/v1/memories', key, { text: 'Dora visits her aunt in Lisbon every spring.', space: 'elsewhere' });
    const limited = await createLimitedKey(db, id, { space, name: null, rpm: 1_000, expiresAt: null, note: null });
    const saved = await counted('/v1/memories', limited.key, { text: 'Ilsa keeps her bicycle in the blue shed.' });
    expect(saved.body.source.status).toBe('waiting');
    const share = await get('/v1/usage', limited.key);
    expect(usageHeaders(saved.response)['Waiting-Tokens']).toBe(String(share.waiting_tokens));
    expect(share.waiting_tokens).toBe(100);
    const whole = await get('/v1/usage', key);
    expect(whole.waiting_tokens).toBe(200);
  });
});

describe('saves that come together', () => {
  const context = () => ({ db, config, now: () => new Date() });
  const note = (body: string) => ({ kind: 'note' as const, title: null, body, tokens: 0 });

  it('are stored in one transaction, each caller answered with its own source', async () => {
    const { id, key } = await account();
    const space = freshSpace();
    // The usage as each call would have read it with its key.
    const known = { snapshot: (await usageSnapshot(db, id, periodOf(new Date()).start, null))!, at: new Date() };
    statements.length = 0;
    counting = true;
    const bodies = ['Wren bakes rye bread on Sundays.', 'Wren sold her piano in March.', 'Wren learns Welsh at night school.'];
    let saved: Awaited<ReturnType<typeof save>>[];
    try {
      saved = await Promise.all(bodies.map((body) => save(context(), { accountId: id, space }, note(body), known)));
    } finally {
      counting = false;
    }
    if (embedded) {
      // One statement for the three: their space, sources and jobs.
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/ insert into sources .* insert into jobs /);
    } else {
      // One transaction for the three: begin, their space and sources, their jobs, commit.
      expect(statements).toHaveLength(4);
      expect(statements.filter((statement) => statement === 'begin')).toHaveLength(1);
      expect(statements.filter((statement) => statement.startsWith('insert into jobs'))).toHaveLength(1);
      expect(statements.filter((statement) => / insert into sources /.test(` ${statement} `))).toHaveLength(1);
    }
    expect(new Set(saved.map((source) => source.id)).size).toBe(3);
    for (const source of saved) {
      const stored = await get(`/v1/sources/${source.id}?space=${space}`, key);
      expect(stored.source).toMatchObject({ id: source.id, status: 'queued' });
    }
  });

  it('refuse only the save the database refuses: the others of its group are stored', async () => {
    const { id, key } = await account();
    const gone = await account();
    const space = freshSpace();
    // The second save's account is deleted after its usage was judged: its space cannot be opened.
    // Each judged on the usage read with its key, so the three reach the store together, in one group.
    const known = async (accountId: number) => ({
      snapshot: (await usageSnapshot(db, accountId, periodOf(new Date()).start, null))!,
      at: new Date(),
    });
    const [mine, theirs] = [await known(id), await known(gone.id)];
    await db.deleteFrom('accounts').where('id', '=', gone.id).execute();
    statements.length = 0;
    counting = true;
    const outcomes = await Promise.allSettled([
      save(context(), { accountId: id, space }, note('Tomas repairs clocks in his garage.'), mine),
      save(context(), { accountId: gone.id, space }, note('Nobody keeps this one.'), theirs),
      save(context(), { accountId: id, space }, note('Tomas walks his dog at dawn.'), mine),
    ]);
    counting = false;
    // The group's statement (or transaction) was tried first, then each save alone.
    expect(statements.filter((statement) => / insert into sources /.test(` ${statement} `))).toHaveLength(4);
    expect(statements.filter((statement) => statement === 'begin')).toHaveLength(embedded ? 0 : 4);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.id] : []));
    const listed = await get(`/v1/sources?space=${space}`, key);
    expect(listed.sources.map((source: { id: string }) => source.id).sort()).toEqual(stored.sort());
    expect(stored).toHaveLength(2);
  });
});

describe('calls that come together', () => {
  /** Calls the app in process with several requests at once; returns their answers and the statements they ran. */
  async function together(requests: { key: string; body: unknown }[]) {
    statements.length = 0;
    counting = true;
    try {
      const responses = await Promise.all(
        requests.map(({ key, body }) =>
          app.request('/v1/memories', {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          }),
        ),
      );
      return { responses, statements: [...statements] };
    } finally {
      counting = false;
    }
  }
  const admissions = (ran: string[]) => ran.filter((statement) => statement.includes('rate_counters'));

  it('are admitted in one statement on the embedded store, each counted in its key minute as if alone', async () => {
    const { key } = await account();
    const other = await account();
    const space = freshSpace();
    const ran = await together([
      { key, body: { text: 'Bram tunes pianos in Ghent.', space } },
      { key: other.key, body: { text: 'Cleo rows on the canal at dawn.', space } },
      { key, body: { text: 'Bram bought a red van in April.', space } },
      { key, body: { text: 'Bram keeps bees behind his house.', space } },
    ]);
    expect(ran.responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect(admissions(ran.statements)).toHaveLength(embedded ? 1 : 4);
    // Each call of the key its own count, in the order the calls came; the other key's apart.
    const remaining = ran.responses.map((response) => Number(response.headers.get('X-RateLimit-Remaining')));
    const limit = Number(ran.responses[0]!.headers.get('X-RateLimit-Limit'));
    const mine = [remaining[0]!, remaining[2]!, remaining[3]!];
    expect([...mine].sort((a, b) => b - a)).toEqual([limit - 1, limit - 2, limit - 3]);
    if (embedded) expect(mine).toEqual([limit - 1, limit - 2, limit - 3]);
    expect(remaining[1]).toBe(limit - 1);
    // Each saved once, with its own source.
    const sources = await Promise.all(ran.responses.map((response) => response.json() as Promise<any>));
    expect(new Set(sources.map((body) => body.source.id)).size).toBe(4);
  });

  it('hold a key to its requests a minute when admitted together: only the calls past the limit are refused', async () => {
    const { id, key } = await account();
    const space = freshSpace();
    const limited = await createLimitedKey(db, id, { space, name: null, rpm: 2, expiresAt: null, note: null });
    const ran = await together(
      ['Dita paints boats.', 'Dita sails on Fridays.', 'Dita sold her old mast.'].map((text) => ({ key: limited.key, body: { text } })),
    );
    expect(ran.responses.map((response) => response.status).sort()).toEqual([201, 201, 429]);
    if (embedded) expect(ran.responses.map((response) => response.status)).toEqual([201, 201, 429]);
    const listed = await get(`/v1/sources?space=${space}`, key);
    expect(listed.sources).toHaveLength(2);
  });

  it('refuse a wrong or revoked key among them, the others admitted', async () => {
    const { id, key } = await account();
    const space = freshSpace();
    const revoked = await createLimitedKey(db, id, { space, name: null, rpm: 1_000, expiresAt: null, note: null });
    await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', revoked.id).execute();
    const ran = await together([
      { key, body: { text: 'Enzo fixes bicycles.', space } },
      { key: 'egk_not_a_key_0123456789abcdefghijklmnop', body: { text: 'Nobody saves this.', space } },
      { key: revoked.key, body: { text: 'Nor this.' } },
      { key, body: { text: 'Enzo moved to Turin.', space } },
    ]);
    expect(ran.responses.map((response) => response.status)).toEqual([201, 401, 401, 201]);
    const errors = await Promise.all(ran.responses.slice(1, 3).map((response) => response.json() as Promise<any>));
    expect(errors.map((body) => body.error.message)).toEqual(['The key is not valid', 'The key has been revoked']);
    expect(admissions(ran.statements)).toHaveLength(embedded ? 1 : 4);
  });

  it('of different usage periods are admitted apart, each reading its own period', async () => {
    const { id, key } = await account();
    const space = freshSpace();
    const now = new Date();
    const thisPeriod = periodOf(now).start;
    const lastPeriod = periodOf(new Date(thisPeriod.getTime() - 1)).start;
    await addLearnedTokens(db, { accountId: id, space }, thisPeriod, 300);
    await addLearnedTokens(db, { accountId: id, space }, lastPeriod, 40);
    statements.length = 0;
    counting = true;
    const groups = admissionGroupsOf(db);
    const [current, previous, again] = await Promise.all([
      groups.admit(hashKey(key), now, thisPeriod),
      groups.admit(hashKey(key), now, lastPeriod),
      groups.admit(hashKey(key), now, thisPeriod),
    ]).finally(() => {
      counting = false;
    });
    expect([current, previous, again].map((admission) => admission?.usage?.figures.learnedTokens)).toEqual([300, 40, 300]);
    // The two calls of this period in one statement (counted first, in their order), the other period's in the next.
    expect(admissions(statements)).toHaveLength(2);
    expect([current, previous, again].map((admission) => admission?.rate?.count)).toEqual([1, 3, 2]);
  });
});
