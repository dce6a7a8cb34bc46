import { episodes } from './kinds/episodes.js';
import { files } from './kinds/files.js';
import { healthRuns } from './kinds/health-runs.js';
import { intentions } from './kinds/intentions.js';
import { accountKeys, limitedKeys } from './kinds/keys.js';
import { lessons } from './kinds/lessons.js';
import { memories } from './kinds/memories.js';
import { sources } from './kinds/sources.js';
import { stateItems } from './kinds/state-items.js';
import { usage } from './kinds/usage.js';
import type { RecordKind } from './record-kind.js';

/**
 * Every kind of record an export holds, in the order lines are written and restored. A new
 * table family is one entry here: a RecordKind placed after
 * the kinds its records refer to (after memories when it names memory ids, which it settles
 * through `context.ids.memory`), and FORMAT_VERSION raised (format.ts).
 *
 * Not exported, because they are derived or passing: raw passages of sources waiting for the
 * plan (written again when such a source is restored), learning jobs (a source restored
 * unlearned gets a new one), rate counters, stored idempotent answers, copies of search
 * indexes held by API processes, and memory versions.
 */
export const RECORD_KINDS: RecordKind<any>[] = [
  accountKeys,
  limitedKeys,
  sources,
  files,
  memories,
  usage,
  // What briefings are made of (format 2): each row names its source; health runs name memories.
  stateItems,
  intentions,
  lessons,
  episodes,
  healthRuns,
];

/** The kind of a line's `type`, if any. */
export const kindOf = (type: string): RecordKind<any> | undefined => RECORD_KINDS.find((kind) => kind.type === type);
