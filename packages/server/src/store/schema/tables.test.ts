import { type InsertType, type SelectType, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../database.js';
import { migrate } from '../migrations.js';
import type { Database, JsonValue } from './tables.js';

/** What information_schema names each column type (`udt_name`), and what the driver reads it as. */
interface PgTypes {
  int4: number;
  int8: number;
  numeric: number;
  float8: number;
  text: string;
  tsvector: string;
  bool: boolean;
  timestamptz: Date;
  date: Date;
  _text: string[];
  bytea: Buffer;
  jsonb: JsonValue;
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The column types a value read as `S` may have (jsonb only for what is not a plain scalar or a text array). */
type PgTypeOf<S> = {
  [U in keyof PgTypes]: U extends 'jsonb'
    ? [S] extends [JsonValue]
      ? [S] extends [number | string | boolean | string[]]
        ? never
        : U
      : never
    : Same<S, PgTypes[U]> extends true
      ? U
      : never;
}[keyof PgTypes];

/**
 * How a column of `Database` is described below: its type, then ' null' when it may be null and
 * ' default' when an insert may leave it out. The compiler holds each description to the
 * interface (`npm run typecheck`); the test holds the descriptions to the migrated database.
 */
type Described<C> =
  `${PgTypeOf<NonNullable<SelectType<C>>>}${null extends SelectType<C> ? ' null' : ''}${undefined extends InsertType<C> ? ' default' : ''}`;

/** Every table and column of `Database`: a table or column missing here, or one too many, fails to compile. */
type DescribedDatabase = { [T in keyof Database]: { [C in keyof Database[T]]-?: Described<Database[T][C]> } };

const described: DescribedDatabase = {
  accounts: {
    id: 'int4 default',
    name: 'text',
    plan: 'text default',
    trial_ends_at: 'timestamptz null',
    extra_on: 'bool default',
    extra_cap_usd: 'numeric default',
    created_at: 'timestamptz default',
  },
  api_keys: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text null',
    name: 'text null',
    note: 'text null',
    hash: 'text',
    starts_with: 'text',
    rpm: 'int4 null',
    expires_at: 'timestamptz null',
    revoked_at: 'timestamptz null',
    created_at: 'timestamptz default',
    last_used_at: 'timestamptz null',
    revoked_reason: 'text null',
  },
  engram_migrations: {
    id: 'int4',
    name: 'text',
    applied_at: 'timestamptz default',
  },
  episodes: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    project: 'text null',
    title: 'text',
    summary: 'text',
    date: 'date',
    source_id: 'text',
    created_at: 'timestamptz default',
  },
  files: {
    account_id: 'int4',
    space: 'text',
    path: 'text',
    text: 'text',
    size: 'int4',
    labels: 'jsonb default',
    source_id: 'text',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
  },
  health_runs: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    day: 'date',
    nightly: 'bool',
    claimed_by: 'text',
    claimed_at: 'timestamptz default',
    finished_at: 'timestamptz null',
    asked: 'int4 default',
    score: 'float8 default',
    health: 'float8 null',
    items: 'jsonb default',
  },
  idempotency_keys: {
    account_id: 'int4',
    key: 'text',
    fingerprint: 'text',
    status: 'int4 null',
    body: 'jsonb null',
    created_at: 'timestamptz default',
    space: 'text null',
    key_id: 'int4',
    secret_withheld: 'bool default',
  },
  intentions: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    project: 'text null',
    text: 'text',
    key: 'text',
    status: 'text default',
    due: 'date null',
    triggers: 'jsonb default',
    source_id: 'text',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
  },
  jobs: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    source_id: 'text',
    task: 'text default',
    run_at: 'timestamptz default',
    attempts: 'int4 default',
    max_attempts: 'int4 default',
    locked_at: 'timestamptz null',
    locked_by: 'text null',
    last_error: 'text null',
    created_at: 'timestamptz default',
    locked_until: 'timestamptz null',
  },
  lessons: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    project: 'text null',
    type: 'text',
    text: 'text',
    key: 'text',
    applies_when: 'text null',
    why: 'text null',
    date: 'date',
    source_id: 'text',
    created_at: 'timestamptz default',
  },
  memories: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    source_id: 'text',
    text: 'text',
    kind: 'text',
    date: 'date',
    about: '_text default',
    labels: 'jsonb default',
    status: 'text default',
    fingerprint: 'text',
    sentence_text: 'text',
    message_index: 'int4 null',
    sentence_start: 'int4',
    sentence_end: 'int4',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
    tsv: 'tsvector',
    raw: 'bool default',
    slot: 'text null',
    reported: 'bool default',
    name_types: '_text null',
    lasting: 'bool null',
    owner: 'bool null',
  },
  memory_changes: {
    account_id: 'int4',
    space: 'text',
    version: 'int8',
    memory_id: 'int4',
    at: 'timestamptz default',
  },
  memory_events: {
    id: 'int4 default',
    memory_id: 'int4',
    event: 'text',
    at: 'timestamptz default',
    other_memory_id: 'int4 null',
    source_id: 'text null',
    text: 'text null',
    account_id: 'int4',
  },
  memory_sources: {
    memory_id: 'int4',
    source_id: 'text',
    sentence_text: 'text',
    message_index: 'int4 null',
    sentence_start: 'int4',
    sentence_end: 'int4',
    created_at: 'timestamptz default',
    account_id: 'int4',
  },
  periodic_runs: {
    name: 'text',
    slot: 'text',
    owner: 'text',
    started_at: 'timestamptz default',
    finished_at: 'timestamptz null',
    error: 'text null',
  },
  source_memory_counts: {
    account_id: 'int4',
    source_id: 'text',
    count: 'int4 default',
  },
  space_memory_counts: {
    account_id: 'int4',
    space: 'text',
    kind: 'text',
    count: 'int4 default',
  },
  rate_counters: {
    key_id: 'int4',
    window_start: 'timestamptz',
    count: 'int4 default',
  },
  request_log: {
    id: 'int8 default',
    account_id: 'int4',
    at: 'timestamptz',
    method: 'text',
    route: 'text',
    status: 'int4',
    space: 'text null',
    key_prefix: 'text',
    request_id: 'text',
    duration_ms: 'int4',
    error_type: 'text null',
  },
  restored_ids: {
    account_id: 'int4',
    space: 'text',
    kind: 'text',
    original: 'text',
    restored: 'text',
  },
  sources: {
    id: 'text',
    account_id: 'int4',
    space: 'text',
    kind: 'text',
    title: 'text null',
    url: 'text null',
    path: 'text null',
    status: 'text default',
    error: 'jsonb null',
    body: 'text null',
    messages: 'jsonb null',
    corrects_memory_id: 'int4 null',
    tokens: 'int4 default',
    written_at: 'timestamptz default',
    created_at: 'timestamptz default',
    learned_at: 'timestamptz null',
    file: 'bytea null',
    project: 'text null',
    attempts: 'int4 default',
    seq: 'int8 default',
  },
  spaces: {
    account_id: 'int4',
    name: 'text',
    created_at: 'timestamptz default',
    memories_version: 'int8 default',
  },
  state_items: {
    id: 'int4 default',
    account_id: 'int4',
    space: 'text',
    project: 'text default',
    field: 'text',
    text: 'text',
    key: 'text',
    done: 'bool default',
    said_at: 'timestamptz',
    position: 'int4 default',
    source_id: 'text',
    created_at: 'timestamptz default',
  },
  usage_counters: {
    account_id: 'int4',
    space: 'text',
    period_start: 'timestamptz',
    learned_tokens: 'int8 default',
    answers: 'int4 default',
    model_input_tokens: 'int8 default',
    model_output_tokens: 'int8 default',
  },
};

describe('the Database interface', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: 'memory://' });
    await migrate(store.db);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it('names every table and column the migrations make, with its type, whether it may be null and whether it has a default', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; defaulted: boolean }>`
      select table_name, column_name, udt_name, is_nullable, (column_default is not null or is_identity = 'YES') as defaulted
      from information_schema.columns where table_schema = 'public' order by table_name, column_name`.execute(store.db);
    const migrated: Record<string, Record<string, string>> = {};
    for (const row of rows) {
      const columns = (migrated[row.table_name] ??= {});
      columns[row.column_name] = `${row.udt_name}${row.is_nullable === 'YES' ? ' null' : ''}${row.defaulted ? ' default' : ''}`;
    }
    expect(Object.keys(migrated).length).toBeGreaterThan(20);
    expect(migrated).toEqual(described);
  });
});
