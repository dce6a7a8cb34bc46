-- Engram on Citus, its rows spread over the workers by account (docs/deploy.md, "Many accounts").
--
-- Run once on the coordinator, after `engram migrate` has made the schema on an empty database
-- and before any data is written:
--
--   DATABASE_URL=postgres://…/engram npx engram migrate
--   psql "$DATABASE_URL" -f docs/citus.sql
--
-- and run every Engram process with ENGRAM_RECALL_CACHE_MEMORIES=0 (see the triggers below).
-- The migrations already put the account first in every key of an account's rows; what is left is
-- what only Citus asks for. test/postgres/citus-shape.test.ts runs this file on plain PostgreSQL,
-- without the statements that need the citus extension, and checks the schema's keys and a whole
-- session of the API against it.

create extension if not exists citus;

-- Citus keeps the identity columns of distributed tables as bigint.
alter table memories alter column id type bigint;
alter table memory_sources alter column memory_id type bigint;
alter table memory_events alter column id type bigint, alter column memory_id type bigint, alter column other_memory_id type bigint;
alter table sources alter column corrects_memory_id type bigint;
alter table state_items alter column id type bigint;
alter table intentions alter column id type bigint;
alter table lessons alter column id type bigint;
alter table episodes alter column id type bigint;
alter table health_runs alter column id type bigint;

-- The learning queue stays a plain table on the coordinator: a worker's claim takes the next job
-- of any account under a row lock, which a distributed table refuses. It names its source by
-- (account_id, source_id) without a foreign key; deleting a source deletes its job in the same
-- transaction (the repositories do it), and a job whose source is gone finishes without work.
alter table jobs drop constraint jobs_account_id_source_id_fkey;

-- The recall cache's version of a space is bumped (and the memories it changed recorded in
-- memory_changes) by statement triggers with transition tables, which distributed tables do not
-- run. Without them, a process must not keep a copy of a space's index:
-- ENGRAM_RECALL_CACHE_MEMORIES=0, and recall reads the store every time.
drop trigger memories_inserted on memories;
drop trigger memories_updated on memories;
drop trigger memories_deleted on memories;

-- Read by every request, small: a copy on every worker.
select create_reference_table('accounts');
select create_reference_table('api_keys');

-- An account's rows, co-located so that every join of them stays on one worker.
select create_distributed_table('spaces', 'account_id');
select create_distributed_table('sources', 'account_id', colocate_with => 'spaces');
select create_distributed_table('memories', 'account_id', colocate_with => 'spaces');
select create_distributed_table('memory_sources', 'account_id', colocate_with => 'spaces');
select create_distributed_table('memory_events', 'account_id', colocate_with => 'spaces');
select create_distributed_table('memory_changes', 'account_id', colocate_with => 'spaces');
select create_distributed_table('source_memory_counts', 'account_id', colocate_with => 'spaces');
select create_distributed_table('space_memory_counts', 'account_id', colocate_with => 'spaces');
select create_distributed_table('files', 'account_id', colocate_with => 'spaces');
select create_distributed_table('state_items', 'account_id', colocate_with => 'spaces');
select create_distributed_table('intentions', 'account_id', colocate_with => 'spaces');
select create_distributed_table('lessons', 'account_id', colocate_with => 'spaces');
select create_distributed_table('episodes', 'account_id', colocate_with => 'spaces');
select create_distributed_table('health_runs', 'account_id', colocate_with => 'spaces');
select create_distributed_table('restored_ids', 'account_id', colocate_with => 'spaces');
select create_distributed_table('usage_counters', 'account_id', colocate_with => 'spaces');
select create_distributed_table('idempotency_keys', 'account_id', colocate_with => 'spaces');
select create_distributed_table('request_log', 'account_id', colocate_with => 'spaces');

-- Plain tables on the coordinator: jobs (above), rate_counters (one row per key and minute),
-- periodic_runs (one row per housekeeping slot) and engram_migrations.
