/** The `next` field of a listing: the cursor of the following page, absent on the last. */
export function nextCursor(cursor: number, returned: number, total: number): { next?: number } {
  return cursor + returned < total ? { next: cursor + returned } : {};
}
