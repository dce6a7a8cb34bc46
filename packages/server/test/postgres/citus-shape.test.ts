import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/server.js';
import { startServer } from '../../src/server.js';
import { openStore } from '../../src/store/database.js';
import { migrate } from '../../src/store/migrations.js';
import { call as callWith, freshSpace } from '../api/helpers.js';
import { createTestDatabase } from '../setup/postgres.js';

// The schema as docs/citus.sql distributes it by account: every table is placed (distributed,
// reference or plain), every key of a distributed table starts from the account, every foreign
// key between them goes through it, and the API works whole on the schema that file leaves
// (its Citus calls aside: this machine's PostgreSQL has no citus extension).

const ddlPath = fileURLToPath(new URL('../../../../docs/citus.sql', import.meta.url));
const REFERENCE = new Set(['accounts', 'api_keys']);
const PLAIN = new Set(['jobs', 'rate_counters', 'periodic_runs', 'engram_migrations']);

/** The statements of a SQL file, its comments left out. */
function statementsOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(';')
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** Whether a statement needs the citus extension. */
const needsCitus = (statement: string) => /citus|create_(distributed|reference)_table/.test(statement);

interface Constraint {
  table: string;
  kind: 'p' | 'u' | 'f';
  columns: string[];
  references: string | null;
  referencedColumns: string[];
}

async function constraints(client: pg.Client): Promise<Constraint[]> {
  const { rows } = await client.query<{
    table: string;
    kind: 'p' | 'u' | 'f';
    columns: string[];
    references: string | null;
    referenced: string[];
  }>(`
    select c.conrelid::regclass::text as table, c.contype as kind,
      array(select a.attname from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
      case when c.contype = 'f' then c.confrelid::regclass::text end as references,
      array(select a.attname from unnest(coalesce(c.confkey, '{}')) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i)::text[] as referenced
    from pg_constraint c where c.connamespace = 'public'::regnamespace and c.contype in ('p', 'u', 'f')`);
  return rows.map((row) => ({
    table: row.table,
    kind: row.kind,
    columns: row.columns,
    references: row.references,
    referencedColumns: row.referenced,
  }));
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let client: pg.Client;
let distributed: Set<string>;

beforeAll(async () => {
  database = await createTestDatabase();
  const store = await openStore({ databaseUrl: database.url, dataDir: '' });
  await migrate(store.db);
  await store.close();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const ddl = await readFile(ddlPath, 'utf8');
  distributed = new Set([...ddl.matchAll(/create_distributed_table\('([a-z_]+)'/g)].map((match) => match[1]!));
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe('the schema, spread by account', () => {
  it('places every table: distributed by account, a reference table, or a plain table on the coordinator', async () => {
    const { rows } = await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public'`);
    const tables = rows.map((row) => row.name).sort();
    const placed = [...distributed, ...REFERENCE, ...PLAIN].sort();
    // A new table must be placed in docs/citus.sql (and here) before it ships.
    expect(tables).toEqual(placed);
    expect(distributed.size).toBeGreaterThan(10);
  });

  it('keys every distributed table by its account, and joins them only through it', async () => {
    const { rows: columns } = await client.query<{ table: string; nullable: string }>(`
      select table_name as table, is_nullable as nullable from information_schema.columns
      where table_schema = 'public' and column_name = 'account_id'`);
    const accountColumn = new Map(columns.map((row) => [row.table, row.nullable]));
    const problems: string[] = [];
    for (const table of distributed) {
      if (accountColumn.get(table) !== 'NO') problems.push(`${table} has no account_id that is not null`);
    }
    for (const constraint of await constraints(client)) {
      if (!distributed.has(constraint.table)) continue;
      if (constraint.kind !== 'f' && !constraint.columns.includes('account_id')) {
        problems.push(
          `${constraint.table}: a ${constraint.kind === 'p' ? 'primary key' : 'unique'} (${constraint.columns}) without account_id`,
        );
      }
      if (constraint.kind === 'f' && distributed.has(constraint.references!)) {
        const at = constraint.columns.indexOf('account_id');
        if (at < 0 || constraint.referencedColumns[at] !== 'account_id') {
          problems.push(`${constraint.table} (${constraint.columns}) → ${constraint.references}: not through the account`);
        }
      }
    }
    const { rows: indexes } = await client.query<{ table: string; definition: string }>(`
      select tablename as table, indexdef as definition from pg_indexes where schemaname = 'public' and indexdef like 'CREATE UNIQUE%'`);
    for (const index of indexes) {
      if (distributed.has(index.table) && !/\baccount_id\b/.test(index.definition))
        problems.push(`unique index without account_id: ${index.definition}`);
    }
    expect(problems).toEqual([]);
  });

  it('catches a key that leaves the account out (the check above is not vacuous)', async () => {
    await client.query('create table probe_rows (id integer primary key, account_id integer not null)');
    try {
      const probe = (await constraints(client)).filter((constraint) => constraint.table === 'probe_rows');
      expect(probe).toEqual([{ table: 'probe_rows', kind: 'p', columns: ['id'], references: null, referencedColumns: [] }]);
    } finally {
      await client.query('drop table probe_rows');
    }
  });
});

describe('the API on the schema docs/citus.sql leaves', () => {
  let server: RunningServer;
  const ownerKey = 'egk_citus_owner_0123456789abcdefghijklmnopq';
  const call = (method: string, path: string, options: Parameters<typeof callWith>[2] = {}) =>
    callWith(method, path, { key: ownerKey, base: server.url, ...options });

  beforeAll(async () => {
    const ddl = await readFile(ddlPath, 'utf8');
    const runnable = statementsOf(ddl).filter((statement) => !needsCitus(statement));
    expect(runnable.length).toBeGreaterThan(5);
    for (const statement of runnable) await client.query(statement);
    server = await startServer(
      loadConfig({
        ENGRAM_PORT: '0',
        DATABASE_URL: database.url,
        ENGRAM_BOOTSTRAP_KEY: ownerKey,
        ENGRAM_POLL_MS: '20',
        ENGRAM_RECALL_CACHE_MEMORIES: '0',
      }),
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  async function learned(space: string, sourceId: string) {
    const waited = await call('GET', `/v1/sources/${sourceId}?wait=20`, { space });
    expect(waited.body.source.status).toBe('finished');
    return waited.body.source;
  }

  it('saves, learns, recalls, corrects, rewrites a file, forgets and exports', async () => {
    const space = freshSpace('citus');
    const saved = await call('POST', '/v1/memories', {
      space,
      body: {
        messages: [
          { role: 'user', content: 'I moved to Lisbon in March and I work as a carpenter now.' },
          { role: 'user', content: 'My sister Ines teaches chemistry in Porto.' },
        ],
      },
    });
    expect(saved.status).toBe(201);
    expect((await learned(space, saved.body.source.id)).memories).toBeGreaterThan(0);

    const found = await call('POST', '/v1/search', { space, body: { q: 'Where does the user live?' } });
    expect(found.status).toBe(200);
    const lisbon = found.body.memories.find((memory: { text: string }) => /Lisbon/.test(memory.text));
    expect(lisbon).toBeDefined();
    expect(typeof lisbon.id).toBe('number');

    // A correction writes the memory's history (memory_events, keyed by the account now).
    const corrected = await call('PATCH', `/v1/memories/${lisbon.id}`, { space, body: { text: 'I live in Braga, not Lisbon.' } });
    expect(corrected.status).toBe(200);
    await learned(space, corrected.body.source.id);
    const history = await call('GET', `/v1/memories/${lisbon.id}`, { space });
    expect(history.body.memory.status).toBe('wrong');
    expect(history.body.history.map((event: { event: string }) => event.event)).toContain('corrected');

    // A file and its rewrite: memory_sources follow the text.
    const put = await call('PUT', '/v1/files', { space, body: { path: '/notes/garden.md', text: 'The user grows tomatoes and basil.' } });
    expect(put.status).toBe(200);
    await learned(space, put.body.source.id);
    const rewritten = await call('PUT', '/v1/files', {
      space,
      body: { path: '/notes/garden.md', text: 'The user grows tomatoes and basil. The user keeps two beehives.' },
    });
    expect(rewritten.status).toBe(200);
    await learned(space, rewritten.body.source.id);
    const bees = await call('POST', '/v1/search', { space, body: { q: 'beehives' } });
    expect(bees.body.memories.some((memory: { text: string }) => /beehives/.test(memory.text))).toBe(true);

    // Forgetting a source takes its memories and its job's row.
    const forgotten = await call('DELETE', `/v1/sources/${saved.body.source.id}`, { space });
    expect(forgotten.status).toBe(200);
    const { rows: jobs } = await client.query('select count(*)::int as n from jobs where source_id = $1', [saved.body.source.id]);
    expect(jobs[0].n).toBe(0);
    const after = await call('POST', '/v1/search', { space, body: { q: 'sister chemistry Porto' } });
    expect(after.body.memories.some((memory: { text: string }) => /Ines/.test(memory.text))).toBe(false);

    const exported = await call('GET', `/v1/export?space=${encodeURIComponent(space)}`);
    expect(exported.status).toBe(200);
    expect(String(exported.body)).toMatch(/beehives/);

    // memory_sources and memory_events carry the account of their memory.
    const { rows: strays } = await client.query(`
      select (select count(*) from memory_sources ms join memories m on m.id = ms.memory_id where ms.account_id <> m.account_id)
           + (select count(*) from memory_events e join memories m on m.id = e.memory_id where e.account_id <> m.account_id) as n`);
    expect(Number(strays[0].n)).toBe(0);
  });
});
