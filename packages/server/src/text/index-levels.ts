/**
 * Where in a memory a word was found, from the tsvector weights it carries: 3 in its own words
 * or names (A, B), 2 in the rest of its message (C), 1 only in the message it answers (D).
 * The weights are written by the store's index expression; recall reads the levels.
 */
export type IndexLevel = 1 | 2 | 3;

/** The level of a word from the weight letters of its positions ("A", "BC", "D"); a word without positions counts as its own (A). */
export function levelOfWeights(weights: string | undefined): IndexLevel {
  const letters = weights || 'A';
  return /[AB]/.test(letters) ? 3 : letters.includes('C') ? 2 : 1;
}
