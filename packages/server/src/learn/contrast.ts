/**
 * Contrast: a fact that says what no longer holds ("… flexitarian now, not vegetarian", "…
 * Tallinn instead of Riga", "… no longer works at Halden", "… switched from Figma to Penpot",
 * "… stopped drinking coffee", "… used to live in Paris but now …"). The words of the old value let the learner find the memory the
 * fact updates even when no slot (learn/slots.ts) covers what changed: operations/learn-source.ts
 * looks for a current memory of the same subject that says those words and replaces it.
 */

/** A noun phrase: up to four words, ended by punctuation, a clause word or the end. */
const PHRASE = String.raw`((?:[\p{L}\p{N}&’'-]+)(?: (?!(?:now|anymore|any|because|since|as|and|but|so|for|after|this|these|on|in|at|from|to|with|which|who|when)\b)[\p{L}\p{N}&’'-]+){0,3})`;

/** An article or possessive before the old value, left out of its words. */
const DETERMINER = '(?:(?:the|a|an|my|our|his|her|their|its|your) )?';

/** Each contrast, named, with the group that holds the old value. */
export const CONTRASTS: readonly { name: string; pattern: RegExp }[] = [
  // "… going to Tallinn instead of Riga", "… cedar instead of pine".
  { name: 'instead-of', pattern: new RegExp(String.raw`\b(?:instead of|rather than) ${DETERMINER}${PHRASE}`, 'iu') },
  // "… is flexitarian now, not vegetarian".
  { name: 'now-not', pattern: new RegExp(String.raw`\bnow,? not (?:any )?${DETERMINER}${PHRASE}`, 'iu') },
  // "… is not a smoker anymore", "… doesn't eat meat any more".
  {
    name: 'not-anymore',
    pattern: new RegExp(String.raw`(?:\bnot|n[’']t) (?:\p{Ll}+ )?${DETERMINER}${PHRASE} any ?more\b`, 'iu'),
  },
  // "… no longer works at Halden", "… no longer a member of the choir".
  {
    name: 'no-longer',
    pattern: new RegExp(String.raw`\bno longer (?:\p{Ll}+ )?(?:(?:at|in|for|with|on|as|of|to) )?${DETERMINER}${PHRASE}`, 'iu'),
  },
  // "… switched from Figma to Penpot", "… moved from Leeds to Bristol".
  {
    name: 'from-to',
    pattern: new RegExp(
      String.raw`\b(?:switched|changed|moved|went|upgraded|downgraded|swapped|transferred|converted) from ${DETERMINER}${PHRASE} to\b`,
      'iu',
    ),
  },
  // "… stopped drinking coffee", "… gave up smoking".
  { name: 'stopped', pattern: new RegExp(String.raw`\b(?:stopped|gave up|given up) ${DETERMINER}${PHRASE}`, 'iu') },
  // "… used to live in Paris but now the user lives in Rome", "… used to drink coffee, now tea".
  {
    name: 'used-to',
    pattern: new RegExp(
      String.raw`\bused to (?:\p{Ll}+ )(?:(?:at|in|for|with|on|as|of|to) )?${DETERMINER}${PHRASE},? (?:but |and )?(?:now|these days|nowadays)\b`,
      'iu',
    ),
  },
];

/** Where the first contrast of a fact starts (its "instead of", "no longer", …), or -1. */
export function contrastAt(text: string): number {
  const starts = CONTRASTS.map(({ pattern }) => pattern.exec(text)?.index ?? -1).filter((index) => index >= 0);
  return starts.length ? Math.min(...starts) : -1;
}

/** Words an old value is not found by: they say nothing of what it was. */
const EMPTY_WORDS = new Set([
  'it',
  'that',
  'this',
  'them',
  'those',
  'one',
  'ones',
  'thing',
  'things',
  'stuff',
  'much',
  'more',
  'there',
  'here',
]);

/**
 * The words of the value a fact says no longer holds ("vegetarian" for "The user is flexitarian
 * now, not vegetarian."), or null when the fact does not contrast anything. A question is not a contrast.
 */
export function supersededWords(text: string): string | null {
  if (/\?\s*$/.test(text)) return null;
  for (const { pattern } of CONTRASTS) {
    const match = pattern.exec(text);
    const phrase = match?.[1]?.trim();
    if (!phrase) continue;
    const words = phrase.split(/\s+/).filter((word) => !EMPTY_WORDS.has(word.toLowerCase()));
    if (words.length) return words.join(' ');
  }
  return null;
}

/**
 * Whom a fact is about, as the learner writes them: "The user" when it says so (anywhere, "the
 * user's doctor …"), else the first
 * name of `about` it says ("Tomas" in "After the visit Tomas is …"); null when neither is in it.
 */
export function subjectOf(text: string, about: readonly string[] = []): string | null {
  if (/\bthe user\b/i.test(text)) return 'The user';
  return (
    about.find((name) =>
      new RegExp(String.raw`(?<![\p{L}\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\p{L}\p{N}])`, 'u').test(text),
    ) ?? null
  );
}
