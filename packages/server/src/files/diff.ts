import type { Segment } from '../text/segment.js';
import { splitSentences } from '../text/segment.js';

/** How a file's new text differs from its old one, sentence by sentence. */
export interface SentenceDiff {
  /** Sentences of the old text that the new one no longer has. */
  removed: Segment[];
  /** Sentences in both texts: where each sat before and where it sits now. */
  kept: { before: Segment; after: Segment }[];
  /** Sentences of the new text that the old one did not have. */
  added: Segment[];
}

/**
 * Compares two texts as multisets of sentences (the learner's own `splitSentences`, so a
 * sentence here is exactly what a memory remembers as its sentence). Equal sentences pair
 * up in order of appearance, so a paragraph moved elsewhere in the file is kept, not
 * learned again; a sentence whose wording changed is one removed and one added.
 */
export function diffSentences(before: string, after: string): SentenceDiff {
  const waiting = new Map<string, Segment[]>();
  for (const segment of splitSentences(before)) {
    const queue = waiting.get(segment.text);
    if (queue) queue.push(segment);
    else waiting.set(segment.text, [segment]);
  }
  const kept: SentenceDiff['kept'] = [];
  const added: Segment[] = [];
  for (const segment of splitSentences(after)) {
    const match = waiting.get(segment.text)?.shift();
    if (match) kept.push({ before: match, after: segment });
    else added.push(segment);
  }
  const removed = [...waiting.values()].flat().sort((left, right) => left.start - right.start);
  return { removed, kept, added };
}

/**
 * The sentences of `text` that a learning body still holds (a body is the text with what
 * is not to be learned blanked). When the body does not line up with the text, every
 * sentence counts as still to learn.
 */
export function stillToLearn(text: string, body: string | null, segments: readonly Segment[]): Set<Segment> {
  if (body === null) return new Set();
  if (body.length !== text.length) return new Set(segments);
  return new Set(segments.filter((segment) => body.slice(segment.start, segment.end) === segment.text));
}

/**
 * The text with everything outside `keep` blanked: line breaks stay, every other character
 * becomes a space. The length is unchanged, so what is learned from it points into the
 * real text, and blanks cost no tokens.
 */
export function blankExcept(text: string, keep: readonly Segment[]): string {
  const sorted = [...keep].sort((left, right) => left.start - right.start);
  const parts: string[] = [];
  let at = 0;
  for (const segment of sorted) {
    if (segment.start < at) continue;
    parts.push(blank(text.slice(at, segment.start)), text.slice(segment.start, segment.end));
    at = segment.end;
  }
  parts.push(blank(text.slice(at)));
  return parts.join('');
}

const blank = (text: string) => text.replace(/[^\n]/g, ' ');

/** A plan for rewriting a file: what memories to drop, how to move the rest, what body to learn. */
export interface RewritePlan {
  diff: SentenceDiff;
  /** Sentences of the new text to learn: the added ones and those not yet learned before. */
  toLearn: Segment[];
  /** The new text with all but `toLearn` blanked; null when there is nothing to learn. */
  body: string | null;
}

/** Plans a rewrite from the old text, the old learning body (what was still to learn) and the new text. */
export function planRewrite(before: string, pendingBody: string | null, after: string): RewritePlan {
  const diff = diffSentences(before, after);
  const pending = stillToLearn(before, pendingBody, [...diff.removed, ...diff.kept.map((pair) => pair.before)]);
  const toLearn = [...diff.added, ...diff.kept.filter((pair) => pending.has(pair.before)).map((pair) => pair.after)];
  toLearn.sort((left, right) => left.start - right.start);
  return { diff, toLearn, body: toLearn.length ? blankExcept(after, toLearn) : null };
}

/** An index of the old sentences for many lookups (a big file has thousands of memories). */
export function sentenceIndex(diff: SentenceDiff) {
  const owners: { before: Segment; delta: number | null }[] = [
    ...diff.removed.map((before) => ({ before, delta: null })),
    ...diff.kept.map((pair) => ({ before: pair.before, delta: pair.after.start - pair.before.start })),
  ];
  owners.sort((left, right) => left.before.start - right.before.start);
  return (start: number, end: number) => locateIn(owners, start, end);
}

function locateIn(owners: { before: Segment; delta: number | null }[], start: number, end: number) {
  let low = 0;
  let high = owners.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (owners[middle]!.before.start <= start) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found < 0) return null;
  const owner = owners[found]!;
  if (end > owner.before.end) return null;
  return owner.delta === null ? ({ removed: true } as const) : ({ removed: false, delta: owner.delta } as const);
}

/**
 * The text a file's learning is billed for: its body with each run of blanks counted as
 * one space (or one line break). A rewrite's body is mostly blanks standing in for the
 * unchanged text; the tokenizer would count those runs, and they are not learned.
 */
export function billableText(body: string): string {
  return body.replace(/\s{2,}/g, (run) => (run.includes('\n') ? '\n' : ' ')).trim();
}
