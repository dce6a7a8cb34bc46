import { sql } from 'kysely';
import type { Migration } from './migration.js';

/** Accounts, keys, spaces, sources, memories with their links and history, the learning queue, idempotency keys. */
export const initial: Migration = {
  id: 1,
  name: 'initial',
  async up(db) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`
      create table accounts (
        id integer generated always as identity primary key,
        name text not null unique,
        plan text not null default 'free',
        trial_ends_at timestamptz,
        extra_on boolean not null default false,
        extra_cap_usd numeric not null default 0,
        created_at timestamptz not null default now()
      )`.execute(db);
    // space is null for a key that reaches the whole account.
    await sql`
      create table api_keys (
        id integer generated always as identity primary key,
        account_id integer not null references accounts(id) on delete cascade,
        space text,
        name text,
        note text,
        hash text not null unique,
        starts_with text not null,
        rpm integer,
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null default now(),
        last_used_at timestamptz
      )`.execute(db);
    await sql`create index api_keys_account_space on api_keys (account_id, space)`.execute(db);
    // The owner's own memory is the space named ''.
    await sql`
      create table spaces (
        account_id integer not null references accounts(id) on delete cascade,
        name text not null,
        created_at timestamptz not null default now(),
        primary key (account_id, name)
      )`.execute(db);
    await sql`
      create table sources (
        id text primary key,
        account_id integer not null,
        space text not null,
        kind text not null,
        title text,
        url text,
        path text,
        status text not null default 'queued',
        error jsonb,
        body text,
        messages jsonb,
        corrects_memory_id integer,
        tokens integer not null default 0,
        written_at timestamptz not null default now(),
        created_at timestamptz not null default now(),
        learned_at timestamptz,
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index sources_scope_created on sources (account_id, space, created_at desc, id desc)`.execute(db);
    await sql`
      create table memories (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        source_id text not null,
        text text not null,
        kind text not null,
        date date not null,
        about text[] not null default '{}',
        labels jsonb not null default '{}',
        status text not null default 'current',
        fingerprint text not null,
        sentence_text text not null,
        message_index integer,
        sentence_start integer not null,
        sentence_end integer not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        tsv tsvector not null,
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index memories_scope_created on memories (account_id, space, status, created_at desc, id desc)`.execute(db);
    await sql`create index memories_tsv on memories using gin (tsv)`.execute(db);
    // One current memory per fact and space: learning twice links instead of duplicating.
    await sql`create unique index memories_current_fact on memories (account_id, space, fingerprint) where status = 'current'`.execute(db);
    await sql`create index memories_fact on memories (account_id, space, fingerprint)`.execute(db);
    // Every source that taught a memory, with the sentence it came from there.
    await sql`
      create table memory_sources (
        memory_id integer not null references memories(id) on delete cascade,
        source_id text not null references sources(id) on delete cascade,
        sentence_text text not null,
        message_index integer,
        sentence_start integer not null,
        sentence_end integer not null,
        created_at timestamptz not null default now(),
        primary key (memory_id, source_id)
      )`.execute(db);
    await sql`create index memory_sources_source on memory_sources (source_id)`.execute(db);
    await sql`
      create table memory_events (
        id integer generated always as identity primary key,
        memory_id integer not null references memories(id) on delete cascade,
        event text not null,
        at timestamptz not null default now(),
        other_memory_id integer,
        source_id text,
        text text
      )`.execute(db);
    await sql`create index memory_events_memory on memory_events (memory_id, id)`.execute(db);
    // Learning queue (graphile-worker style): claimed with FOR UPDATE SKIP LOCKED under a lease.
    await sql`
      create table jobs (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        source_id text not null unique references sources(id) on delete cascade,
        task text not null default 'learn',
        run_at timestamptz not null default now(),
        attempts integer not null default 0,
        max_attempts integer not null default 5,
        locked_at timestamptz,
        locked_by text,
        last_error text,
        created_at timestamptz not null default now()
      )`.execute(db);
    await sql`create index jobs_ready on jobs (run_at, id)`.execute(db);
    // A POST replayed with the same Idempotency-Key gets the first answer back.
    await sql`
      create table idempotency_keys (
        account_id integer not null references accounts(id) on delete cascade,
        key text not null,
        fingerprint text not null,
        status integer,
        body jsonb,
        created_at timestamptz not null default now(),
        primary key (account_id, key)
      )`.execute(db);
  },
};
