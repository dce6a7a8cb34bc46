import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * What briefings are made of: the project a source belongs to, the state of each project
 * (one row per statement, so that a newer one replaces an older one and deleting a source
 * takes only what it taught), intentions, lessons, episodes, and the memory-health runs,
 * whose (account, space, day) key lets exactly one process of a cluster claim each night's test.
 * Every table follows its space and its source away (on delete cascade).
 */
export const briefings: Migration = {
  id: 9,
  name: 'briefings',
  async up(db) {
    await sql`alter table sources add column project text`.execute(db);
    await sql`
      create table state_items (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        project text not null default '',
        field text not null,
        text text not null,
        key text not null,
        done boolean not null default false,
        said_at timestamptz not null,
        position integer not null default 0,
        source_id text not null references sources(id) on delete cascade,
        created_at timestamptz not null default now(),
        unique (source_id, field, key, done),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index state_items_scope on state_items (account_id, space, project, field)`.execute(db);
    await sql`
      create table intentions (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        project text,
        text text not null,
        key text not null,
        status text not null default 'open',
        due date,
        triggers jsonb not null default '[]',
        source_id text not null references sources(id) on delete cascade,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (source_id, key),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index intentions_scope on intentions (account_id, space, status, due)`.execute(db);
    await sql`
      create table lessons (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        project text,
        type text not null,
        text text not null,
        key text not null,
        applies_when text,
        why text,
        date date not null,
        source_id text not null references sources(id) on delete cascade,
        created_at timestamptz not null default now(),
        unique (source_id, key),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index lessons_scope on lessons (account_id, space, date desc)`.execute(db);
    await sql`
      create table episodes (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        project text,
        title text not null,
        summary text not null,
        date date not null,
        source_id text not null unique references sources(id) on delete cascade,
        created_at timestamptz not null default now(),
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    await sql`create index episodes_scope on episodes (account_id, space, date desc, id desc)`.execute(db);
    await sql`
      create table health_runs (
        id integer generated always as identity primary key,
        account_id integer not null,
        space text not null,
        day date not null,
        nightly boolean not null,
        claimed_by text not null,
        claimed_at timestamptz not null default now(),
        finished_at timestamptz,
        asked integer not null default 0,
        score double precision not null default 0,
        health double precision,
        items jsonb not null default '[]',
        foreign key (account_id, space) references spaces (account_id, name) on delete cascade
      )`.execute(db);
    // One nightly test per space and day in the whole cluster: the process whose insert wins runs it.
    await sql`create unique index health_runs_nightly on health_runs (account_id, space, day) where nightly`.execute(db);
    await sql`create index health_runs_latest on health_runs (account_id, space, finished_at desc)`.execute(db);
  },
};
