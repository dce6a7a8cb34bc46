import type { PageStart } from '../store/scope.js';

/** The `next` field of a listing by offset: the cursor of the following page, absent on the last. */
export function nextCursor(cursor: number, returned: number, total: number): { next?: number } {
  return cursor + returned < total ? { next: cursor + returned } : {};
}

/**
 * Cursors of listings paged by key: the following page starts after the last row of this one,
 * named by a key of its own (a memory's id, a source's sequence number), so a deep page costs
 * what the first does and rows added or deleted meanwhile neither repeat nor skip rows. The
 * cursor stays an integer (SPEC.md section 8): `KEYED_FROM - key` lies far above any count of
 * rows, so a cursor below it still counts rows from the start, as every cursor did before, and
 * each page's cursor is larger than the one before it (clients check that `next` grows).
 */
const KEYED_FROM = Number.MAX_SAFE_INTEGER;
/** Keys are below this; cursors from `KEYED_FROM - MAX_KEY` up name a row. */
const MAX_KEY = 2 ** 52;

/** What a listing's cursor asks for. */
export function pageStart(cursor: number): PageStart {
  return cursor > KEYED_FROM - MAX_KEY ? { after: KEYED_FROM - cursor } : { offset: cursor };
}

/** The `next` field of a listing paged by key: the cursor after the page's last row, absent when no row follows. */
export function keyedNext(lastKey: number | undefined, more: boolean): { next?: number } {
  return more && lastKey !== undefined && lastKey > 0 && lastKey < MAX_KEY ? { next: KEYED_FROM - lastKey } : {};
}
