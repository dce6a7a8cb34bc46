import type { Edit } from './types.js';

/**
 * Applies edits to a text. Edits are independent proposals from several steps (dates,
 * pronouns, verbs), so an edit that overlaps one already accepted is dropped rather than
 * merged: the earlier step wins, which is why callers add date edits first.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const accepted: Edit[] = [];
  for (const edit of edits) {
    const overlaps = accepted.some((other) =>
      edit.start === edit.end
        ? edit.start > other.start && edit.start < other.end
        : other.start === other.end
          ? other.start > edit.start && other.start < edit.end
          : edit.start < other.end && other.start < edit.end,
    );
    if (!overlaps) accepted.push(edit);
  }
  // Stable order: by position, and insertions at the same point keep their arrival order.
  const ordered = accepted
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.order - b.order);
  let result = '';
  let cursor = 0;
  for (const { edit } of ordered) {
    result += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return result + text.slice(cursor);
}
