import { stemmer } from 'stemmer';

const STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'of',
  'and',
  'or',
  'for',
  'on',
  'in',
  'we',
  'i',
  'our',
  'my',
  'is',
  'are',
  'be',
  'it',
  'this',
  'that',
  'with',
  'at',
  'by',
  'from',
  'as',
  'was',
  'were',
  'will',
  'll',
  's',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'about',
  'so',
  'up',
  'first',
  'then',
  'all',
  'me',
  'you',
  'us',
  'your',
  'their',
  'its',
  'into',
  'not',
  'no',
  'need',
  'needs',
  'done',
  'finished',
]);

/** The meaningful words of a text as stems, for matching items and cues. */
export function stems(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1 && !STOP.has(word)).map((word) => stemmer(word)),
  );
}

/** How much of the smaller text's words the other one shares (0..1). */
export function overlap(left: Set<string>, right: Set<string>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / Math.min(left.size, right.size);
}

/** Whether two items say the same thing (a done item and the open item it closes). */
export function sameItem(left: string, right: string): boolean {
  return overlap(stems(left), stems(right)) >= 0.6;
}

/** How much a text bears on a cue: the share of the cue's words it holds (0 when there is no cue). */
export function cueScore(text: string, cue: Set<string>): number {
  if (cue.size === 0) return 0;
  const words = stems(text);
  let shared = 0;
  for (const word of cue) if (words.has(word)) shared += 1;
  return shared / cue.size;
}
