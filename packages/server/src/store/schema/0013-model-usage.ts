import { sql } from 'kysely';
import type { Migration } from './migration.js';

/** Tokens the optional model was sent and gave back, counted per space and month like learning. */
export const modelUsage: Migration = {
  id: 13,
  name: 'model-usage',
  async up(db) {
    await sql`
      alter table usage_counters
        add column model_input_tokens bigint not null default 0,
        add column model_output_tokens bigint not null default 0`.execute(db);
  },
};
