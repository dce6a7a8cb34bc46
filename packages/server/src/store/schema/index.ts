import { initial } from './0001-initial.js';
import { limitsAndUsage } from './0002-limits-and-usage.js';
import { memorySlots } from './0003-memory-slots.js';
import { sourceFiles } from './0004-source-files.js';
import { files } from './0005-files.js';
import { memoryVersions } from './0006-memory-versions.js';
import { reportedMemories } from './0007-reported-memories.js';
import { idempotencyScope } from './0008-idempotency-scope.js';
import { briefings } from './0009-briefings.js';
import { people } from './0010-people.js';
import { cluster } from './0011-cluster.js';
import { restoredIds } from './0012-restored-ids.js';
import { modelUsage } from './0013-model-usage.js';
import { requestLog } from './0014-request-log.js';
import { accountKeys } from './0015-account-keys.js';
import { memoryChanges } from './0016-memory-changes.js';
import { memoryCounts } from './0017-memory-counts.js';
import { memoriesByMessage } from './0018-memories-by-message.js';
import type { Migration } from './migration.js';

/**
 * Every migration, in order. Each lives in its own numbered file; one that changes a table
 * changes its type in tables.ts too (tables.test.ts fails until it does).
 */
export const migrations: Migration[] = [
  initial,
  limitsAndUsage,
  memorySlots,
  sourceFiles,
  files,
  memoryVersions,
  reportedMemories,
  idempotencyScope,
  briefings,
  people,
  cluster,
  restoredIds,
  modelUsage,
  requestLog,
  accountKeys,
  memoryChanges,
  memoryCounts,
  memoriesByMessage,
];
