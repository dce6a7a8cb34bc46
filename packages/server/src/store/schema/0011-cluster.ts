import { sql } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Running as many processes: a job's lease has an end that its worker pushes on while it
 * works (a worker that dies stops pushing, and another takes the job once the end passes);
 * a source keeps how many attempts its learning took; periodic jobs (usage roll-over,
 * clean-ups, nightly work) claim one row per run so that each runs once per cluster.
 */
export const cluster: Migration = {
  id: 11,
  name: 'cluster',
  async up(db) {
    await sql`alter table jobs add column locked_until timestamptz`.execute(db);
    await sql`alter table sources add column attempts integer not null default 0`.execute(db);
    await sql`
      create table periodic_runs (
        name text not null,
        slot text not null,
        owner text not null,
        started_at timestamptz not null default now(),
        finished_at timestamptz,
        error text,
        primary key (name, slot)
      )`.execute(db);
  },
};
