import type { MemoryRow } from '../store/memory-repository.js';

/**
 * A stored memory as the recall unit tests build them: a conversation's fact said on 8 May 2023,
 * its sentence its own text, from the source `src_<id>`; `extra` overrides any column.
 * (Test support only: `*.fixture.ts` files stay out of the build.)
 */
export const memoryRow = (id: number, text: string, extra: Partial<MemoryRow> = {}): MemoryRow => ({
  id,
  source_id: `src_${id}`,
  source_kind: 'conversation',
  source_title: null,
  text,
  kind: 'detail',
  date: '2023-05-08',
  about: [],
  labels: {},
  status: 'current',
  sentence_text: text,
  message_index: 0,
  sentence_start: 0,
  sentence_end: text.length,
  created_at: new Date(0),
  updated_at: new Date(0),
  ...extra,
});
