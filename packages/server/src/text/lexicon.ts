import nlp from './nlp.js';

/** compromise's lexicon: each word it knows, in lower case, with its tag or tags ("sonia" → FemaleName, "lisbon" → City). */
const lexicon = (nlp.model() as { one: { lexicon: Record<string, string | string[] | undefined> } }).one.lexicon;

/** The tags compromise's lexicon gives a lower-case word; none for a word it does not know. */
export function lexiconTags(word: string): readonly string[] {
  const tags = lexicon[word];
  if (tags === undefined) return [];
  return Array.isArray(tags) ? tags : [tags];
}
