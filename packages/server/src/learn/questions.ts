/**
 * Facts hidden in questions. A question about the listener tells nothing, but one that shows
 * or tells something of the speaker does: "Have you seen my new puppy, Rex?" says the
 * speaker has a new puppy called Rex. Each rewrite names the part of the sentence that holds
 * the fact, so the caller can resolve persons and dates inside it with the sentence's edits.
 */
export type QuestionRewrite =
  /** The speaker has what follows "my" ("… my new puppy, Rex?" -> "<speaker> has a new puppy, Rex."). */
  | { type: 'has'; start: number; end: number; article: string }
  /** A statement asked about ("Did I tell you I got a job?" -> "I got a job."). */
  | { type: 'statement'; start: number; end: number };

const showingVerbs =
  '(?:seen|met|heard (?:about|of)|see|meet|hear (?:about|of)|noticed|notice|tried|try|tasted|taste|read|watched|watch|checked out|check out|liked|like|loved|love|visited|visit|been to)';
const shows = new RegExp(
  `^(?:(?:have|did|do|has|would|wanna|want to|do you want to|would you like to|you wanna|you want to)\\s+)?(?:you\\s+)?(?:ever\\s+|already\\s+|yet\\s+|even\\s+|guys\\s+)?${showingVerbs}\\s+(?:my|our)\\s+`,
  'i',
);
const tells =
  /^(?:did|have)\s+(?:i|we)\s+(?:ever\s+|already\s+)?(?:tell|told|mention|mentioned)(?:\s+to)?\s+you(?:\s+guys)?(?:\s+that)?\s+(?!about\b)/i;

/** The rewrite for a question's content, or null when the question is kept as it is. */
export function rewriteQuestion(content: string): QuestionRewrite | null {
  const body = content.replace(/[\s?!.…]+$/u, '');
  const shown = shows.exec(body);
  if (shown !== null && shown[0].length < body.length) {
    const phrase = body.slice(shown[0].length);
    return { type: 'has', start: shown[0].length, end: body.length, article: articleFor(phrase) };
  }
  const told = tells.exec(body);
  if (told !== null && told[0].length < body.length) return { type: 'statement', start: told[0].length, end: body.length };
  return null;
}

/** "a" or "an" before a singular noun phrase, nothing before a plural or counted one. */
export function articleFor(phrase: string): string {
  // The noun phrase ends before a time or a preposition: "moves next Friday" is plural, "collection of stamps" singular.
  const head = (phrase.split(',')[0] ?? '')
    .replace(/\s+(?:next|last|this|tomorrow|today|tonight|yesterday|on|at|in|from|with|for|of|about|when|that|which)\b.*$/i, '')
    .trim();
  const words = head.split(/\s+/);
  const first = words[0]?.toLowerCase() ?? '';
  const last = words[words.length - 1]?.toLowerCase() ?? '';
  if (/^(?:a|an|the|some|two|three|four|five|many|few|several|\d+)$/.test(first)) return '';
  if (/[^s]s$/.test(last) || /(?:children|people|kids)$/.test(last)) return '';
  return /^[aeiou]/.test(first) && !/^(?:uni|use|eu|one)/.test(first) ? 'an' : 'a';
}
