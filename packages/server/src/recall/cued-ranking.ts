import type { HitColumns } from '../store/hit-columns.js';

/**
 * What a cue (kind-cue.ts, name-cue.ts, nearby.ts) reads and changes of a ranking: search.ts's
 * Ranking, whose type those modules cannot import without a cycle.
 */
export interface CuedRanking {
  hits: HitColumns;
  score: Float64Array;
  order: Int32Array;
  length: number;
}
