import type { LexemeHit } from '../store/memory-repository.js';

/**
 * A memory's match as the recall unit tests build them: a detail from the source `src:<id>`,
 * `levels` per query lexeme (3 fact, 2 rest of its message, 1 message before, 0 none); `extra`
 * overrides any column. (Test support only: `*.fixture.ts` files stay out of the build.)
 */
export const lexemeHit = (id: number, levels: number[] = [], extra: Partial<LexemeHit> = {}): LexemeHit => ({
  id,
  kind: 'detail',
  about: [],
  passage: `src:${id}`,
  slot: null,
  dated: false,
  reported: false,
  created_at: 1_000,
  said: 0,
  levels,
  ...extra,
});
