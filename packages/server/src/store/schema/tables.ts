import type { ColumnType, JSONColumnType, Selectable } from 'kysely';

/*
 * The tables and columns the migrations (0001…0016) leave behind, as Kysely types them. First
 * drawn from a migrated PostgreSQL database with kysely-codegen, then written out by hand;
 * `tables.test.ts` fails when a migration and this file disagree (a table or column missing on
 * either side, a column's type, whether it may be null, whether it has a default).
 *
 * Types are what the driver hands back (store/database.ts sets its parsers): bigint and numeric
 * come back as numbers, timestamps and dates as `Date`s, jsonb parsed. JSON columns are written
 * as text (`${JSON.stringify(value)}::jsonb`), which is what their insert and update types say.
 */

/**
 * A column the database fills in when an insert leaves it out (a default, an identity). Unlike
 * Kysely's own `Generated`, it also takes a column type (`Generated<Timestamp>`).
 */
export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

/** Any value JSON can hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A `timestamptz` column: read as a `Date`, written as a `Date` or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;

/**
 * A `date` column: the driver reads it as a `Date` at local midnight, so the repositories read
 * it as text (`to_char(date, 'YYYY-MM-DD')`); written as 'YYYY-MM-DD' or a `Date`.
 */
export type CalendarDate = ColumnType<Date, Date | string, Date | string>;

/** A `bigint` column, read as a number (none of ours pass 2^53). */
export type Int8 = ColumnType<number, number | bigint | string, number | bigint | string>;

/** A `numeric` column, read as a number. */
export type Numeric = ColumnType<number, number | string, number | string>;

/** A `jsonb` column holding an object. */
export type JsonObjectColumn = JSONColumnType<{ [key: string]: JsonValue }>;

/** A `jsonb` column holding an array. */
export type JsonArrayColumn = JSONColumnType<JsonValue[]>;

/** Every table, by name, with its columns. `Kysely<Database>` is the store's handle (store/database.ts). */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  engram_migrations: EngramMigrationsTable;
  episodes: EpisodesTable;
  files: FilesTable;
  health_runs: HealthRunsTable;
  idempotency_keys: IdempotencyKeysTable;
  intentions: IntentionsTable;
  jobs: JobsTable;
  lessons: LessonsTable;
  memories: MemoriesTable;
  memory_changes: MemoryChangesTable;
  memory_events: MemoryEventsTable;
  memory_sources: MemorySourcesTable;
  periodic_runs: PeriodicRunsTable;
  rate_counters: RateCountersTable;
  request_log: RequestLogTable;
  restored_ids: RestoredIdsTable;
  source_memory_counts: SourceMemoryCountsTable;
  sources: SourcesTable;
  space_memory_counts: SpaceMemoryCountsTable;
  spaces: SpacesTable;
  state_items: StateItemsTable;
  usage_counters: UsageCountersTable;
}

/** A row of `table` as a query reads it (`Row<'memories'>`), for typing raw `sql` results. */
export type Row<T extends keyof Database> = Selectable<Database[T]>;

/** An account: its plan and what it may spend beyond it. */
export interface AccountsTable {
  id: Generated<number>;
  name: string;
  plan: Generated<string>;
  trial_ends_at: Timestamp | null;
  extra_on: Generated<boolean>;
  extra_cap_usd: Generated<Numeric>;
  created_at: Generated<Timestamp>;
}

/** An API key, kept as its hash; `space` null for a key that reaches the whole account. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  space: string | null;
  name: string | null;
  note: string | null;
  hash: string;
  starts_with: string;
  rpm: number | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  created_at: Generated<Timestamp>;
  last_used_at: Timestamp | null;
}

/** The migrations applied (store/migrations.ts makes this table itself). */
export interface EngramMigrationsTable {
  id: number;
  name: string;
  applied_at: Generated<Timestamp>;
}

/** What a session was about, one per source. */
export interface EpisodesTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  project: string | null;
  title: string;
  summary: string;
  date: CalendarDate;
  source_id: string;
  created_at: Generated<Timestamp>;
}

/** A file kept under a path, exactly as written; its source holds what is to be learned. */
export interface FilesTable {
  account_id: number;
  space: string;
  /** Collated "C". */
  path: string;
  text: string;
  size: number;
  labels: Generated<JsonObjectColumn>;
  source_id: string;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** A memory-health test of a space; a nightly one is claimed once per space and day. */
export interface HealthRunsTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  day: CalendarDate;
  nightly: boolean;
  claimed_by: string;
  claimed_at: Generated<Timestamp>;
  finished_at: Timestamp | null;
  asked: Generated<number>;
  score: Generated<number>;
  health: number | null;
  items: Generated<JsonArrayColumn>;
}

/** The stored answer of a request made with an `Idempotency-Key`. */
export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  fingerprint: string;
  status: number | null;
  /** The answer's JSON body. */
  body: ColumnType<JsonValue, string | null, string | null>;
  created_at: Generated<Timestamp>;
  space: string | null;
  key_id: number;
  secret_withheld: Generated<boolean>;
}

/** Something the user means to do, with what brings it up. */
export interface IntentionsTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  project: string | null;
  text: string;
  key: string;
  status: Generated<string>;
  due: CalendarDate | null;
  triggers: Generated<JsonArrayColumn>;
  source_id: string;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** The learning queue: one job per source, claimed under a lease. */
export interface JobsTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  source_id: string;
  task: Generated<string>;
  run_at: Generated<Timestamp>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_at: Timestamp | null;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Generated<Timestamp>;
}

/** A lesson learned (what worked, what did not), one per source and key. */
export interface LessonsTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  project: string | null;
  type: string;
  text: string;
  key: string;
  applies_when: string | null;
  why: string | null;
  date: CalendarDate;
  source_id: string;
  created_at: Generated<Timestamp>;
}

/** A memory: one fact learned, with the sentence it came from. */
export interface MemoriesTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  source_id: string;
  text: string;
  kind: string;
  date: CalendarDate;
  about: Generated<string[]>;
  labels: Generated<JsonObjectColumn>;
  status: Generated<string>;
  fingerprint: string;
  sentence_text: string;
  message_index: number | null;
  sentence_start: number;
  sentence_end: number;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  /** A `tsvector`, read as its text. */
  tsv: string;
  raw: Generated<boolean>;
  slot: string | null;
  reported: Generated<boolean>;
  name_types: string[] | null;
  lasting: boolean | null;
  owner: boolean | null;
}

/** Which memories each version of a space changed (written by the memories triggers). */
export interface MemoryChangesTable {
  account_id: number;
  space: string;
  version: Int8;
  memory_id: number;
  at: Generated<Timestamp>;
}

/** How many current memories (raw passages aside) each source taught, kept as they change (migration 17). */
export interface SourceMemoryCountsTable {
  account_id: number;
  source_id: string;
  count: Generated<number>;
}

/** How many current memories of each kind a space holds (raw passages as 'raw'), kept as they change (migration 17). */
export interface SpaceMemoryCountsTable {
  account_id: number;
  space: string;
  kind: string;
  count: Generated<number>;
}

/** A memory's history: learned, replaced, corrected, forgotten. */
export interface MemoryEventsTable {
  id: Generated<number>;
  memory_id: number;
  event: string;
  at: Generated<Timestamp>;
  other_memory_id: number | null;
  source_id: string | null;
  text: string | null;
  account_id: number;
}

/** Every source that taught a memory, with the sentence it came from there. */
export interface MemorySourcesTable {
  memory_id: number;
  source_id: string;
  sentence_text: string;
  message_index: number | null;
  sentence_start: number;
  sentence_end: number;
  created_at: Generated<Timestamp>;
  account_id: number;
}

/** A run of a periodic job, claimed by one process of a cluster per slot. */
export interface PeriodicRunsTable {
  name: string;
  slot: string;
  owner: string;
  started_at: Generated<Timestamp>;
  finished_at: Timestamp | null;
  error: string | null;
}

/** Requests per key and minute. */
export interface RateCountersTable {
  key_id: number;
  window_start: Timestamp;
  count: Generated<number>;
}

/** One authenticated /v1 call: never its body or its key. */
export interface RequestLogTable {
  id: Generated<Int8>;
  account_id: number;
  at: Timestamp;
  method: string;
  route: string;
  status: number;
  space: string | null;
  key_prefix: string;
  request_id: string;
  duration_ms: number;
  error_type: string | null;
}

/** The id a restore gave a record whose own id was taken. */
export interface RestoredIdsTable {
  account_id: number;
  space: string;
  kind: string;
  original: string;
  restored: string;
}

/** Something saved to learn from: a note, a conversation, a page, a file. */
export interface SourcesTable {
  id: string;
  account_id: number;
  space: string;
  kind: string;
  title: string | null;
  url: string | null;
  path: string | null;
  status: Generated<string>;
  error: JSONColumnType<{ [key: string]: JsonValue } | null, string | null, string | null>;
  body: string | null;
  messages: JSONColumnType<JsonValue[] | null, string | null, string | null>;
  corrects_memory_id: number | null;
  tokens: Generated<number>;
  written_at: Generated<Timestamp>;
  created_at: Generated<Timestamp>;
  learned_at: Timestamp | null;
  /** An uploaded file's bytes until a worker reads its text. */
  file: Buffer | null;
  project: string | null;
  attempts: Generated<number>;
  /** Listing cursors name it (identity, by default). */
  seq: Generated<Int8>;
}

/** A space of an account; the owner's own memory is the space named ''. */
export interface SpacesTable {
  account_id: number;
  name: string;
  created_at: Generated<Timestamp>;
  /** Changes whenever any of the space's memories does (store/memory-index.ts). */
  memories_version: Generated<Int8>;
}

/** One statement of a project's state; a newer one replaces an older one. */
export interface StateItemsTable {
  id: Generated<number>;
  account_id: number;
  space: string;
  project: Generated<string>;
  field: string;
  text: string;
  key: string;
  done: Generated<boolean>;
  said_at: Timestamp;
  position: Generated<number>;
  source_id: string;
  created_at: Generated<Timestamp>;
}

/** What a space used in a month. */
export interface UsageCountersTable {
  account_id: number;
  space: string;
  period_start: Timestamp;
  learned_tokens: Generated<Int8>;
  answers: Generated<number>;
  model_input_tokens: Generated<Int8>;
  model_output_tokens: Generated<Int8>;
}
