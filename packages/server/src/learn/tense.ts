import type { Token } from '../text/tokens.js';
import type { Tense } from './dates.js';

const futureMarkers =
  /\b(?:will|won['’]t|gonna|wanna|shall|plan(?:ning|s)? to|about to|tomorrow|next|upcoming|soon|(?:am|is|are)\s+(?:\w+ly\s+)?going to)\b|(?:I|you|we|they|he|she)['’](?:ll|m going to|re going to)\b/i;

/**
 * The tense of a sentence, which decides where a bare "Friday" or "in March" points: future
 * markers win, then any past-tense verb compromise found, else the present.
 */
export function detectTense(text: string, tokens: readonly Token[]): Tense {
  if (futureMarkers.test(text)) return 'future';
  const words = tokens.filter((token) => token.text !== '' || token.implied !== null);
  const past = words.some(
    (token, index) =>
      token.tags.has('PastTense') &&
      token.tags.has('Verb') &&
      !token.tags.has('Adjective') &&
      // A participle after a present "be" or "get" is no past: "We are getting married in September".
      !PRESENT_BE_OR_GET.has((words[index - 1]?.implied ?? words[index - 1]?.normal ?? '').toLowerCase()),
  );
  return past ? 'past' : 'present';
}

/** Present forms of "be" and "get" that a participle may follow without making the sentence past. */
const PRESENT_BE_OR_GET = new Set(['am', 'is', 'are', 'be', 'being', 'get', 'gets', 'getting']);
