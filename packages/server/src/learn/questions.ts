import { MONTH_ALTERNATION, WEEKDAY_ALTERNATION } from '../text/calendar.js';

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
  | { type: 'statement'; start: number; end: number }
  /** The name the speaker asks to be called by ("Call me Bea." -> "<speaker> goes by the name Bea."). */
  | { type: 'goes by'; start: number; end: number }
  /** What the speaker shows the listener ("Look at this quilt I made!" -> "<speaker> showed <listener> a quilt I made."). */
  | { type: 'showed'; start: number; end: number; article: string };

const showingVerbs =
  '(?:seen|met|heard (?:about|of)|see|meet|hear (?:about|of)|noticed|notice|tried|try|tasted|taste|read|watched|watch|checked out|check out|check|looked at|look at|liked|like|loved|love|visited|visit|been to)';
const shows = new RegExp(
  `^(?:(?:have|did|do|has|would|wanna|want to|do you want to|would you like to|you wanna|you want to)\\s+)?(?:you\\s+)?(?:ever\\s+|already\\s+|yet\\s+|even\\s+|guys\\s+)?${showingVerbs}\\s+(?:my|our)\\s+`,
  'i',
);
const tells =
  /^(?:did|have)\s+(?:i|we)\s+(?:ever\s+|already\s+)?(?:tell|told|mention|mentioned)(?:\s+to)?\s+you(?:\s+guys)?(?:\s+that)?\s+(?!about\b)/i;

/**
 * Pointing the listener at something shown ("Look at this quilt I made!", "Check out these
 * tomatoes from the allotment"): the speaker shows it. Two words at least after the pointer, so
 * that "Look at this view!" stays talk.
 */
const showsThis =
  /^(?:take a look at|have a look at|look at|check out|check|see)\s+(this|these|that|those)\s+(?=[\p{L}\p{N}][^\s]*\s+[\p{L}\p{N}])/iu;

/** Asking to be called by a name: "Call me Bea", "Please just call me Bea Lund", "You can call me Bea". */
const callsMe = /^(?:(?:please|you can|you may|feel free to|just)\s+){0,2}call\s+me\s+/iu;
/** A name of one to three capitalised words, and nothing after it. */
const calledName = /^\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2}$/u;
/** Capitalised words that are no name to be called by: "Call me Monday", "Call me ASAP". */
const notCalledNames = new RegExp(
  `^(?:I|ASAP|${WEEKDAY_ALTERNATION}|${MONTH_ALTERNATION}|Tomorrow|Today|Tonight|Later|Maybe|Sometime|Anytime|Back)\\b`,
  'u',
);

/** The rewrite for a question's content (or a command's), or null when it is kept as it is. */
export function rewriteQuestion(content: string): QuestionRewrite | null {
  // "Call me Sam, by the way": a closing aside says nothing of what is asked.
  const body = content.replace(/[\s?!.…]+$/u, '').replace(/,?\s+(?:by the way|btw|please|thanks|thank you)$/iu, '');
  const shown = shows.exec(body);
  if (shown !== null && shown[0].length < body.length) {
    const phrase = body.slice(shown[0].length);
    return { type: 'has', start: shown[0].length, end: body.length, article: articleFor(phrase) };
  }
  const pointed = showsThis.exec(body);
  if (pointed !== null) {
    const phrase = body.slice(pointed[0].length);
    // "these" and "those" point at several: no article.
    const several = /^th[eo]se$/i.test(pointed[1]!);
    return { type: 'showed', start: pointed[0].length, end: body.length, article: several ? '' : articleFor(phrase) };
  }
  const called = callsMe.exec(body);
  if (called !== null) {
    const name = body.slice(called[0].length);
    if (calledName.test(name) && !notCalledNames.test(name)) return { type: 'goes by', start: called[0].length, end: body.length };
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
