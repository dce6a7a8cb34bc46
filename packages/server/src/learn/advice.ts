import type { Token } from '../text/tokens.js';
import { possessive } from './speaker.js';

/**
 * Advice. Between two named people talking, a command to the listener that says what to do
 * ("Book the ferry a week ahead and pack light", "Ask the landlord for the meter readings") is
 * advice the listener may be asked about later ("What advice did Ana give Ben?"). It is learned as "<speaker>'s advice to <listener>: …", in the words questions about it use. The commands of ordinary talk
 * are no advice and stay set aside (learn.ts): a wish ("Have a great hike"), a
 * request to the speaker ("Keep me posted", "Tell me about it"), a pointer at something shown or
 * said ("Check out this view", "Remember those days"), and encouragement that names nothing
 * to do ("Keep it up", "Stay safe and keep going").
 */

/**
 * Verbs whose command wishes the listener well rather than telling them what to do ("Have a
 * great hike this weekend"); "Enjoy…" never gets here, as speaker.ts reads it as "I enjoy…".
 */
export const WISH_VERBS: ReadonlySet<string> = new Set(['have']);
/**
 * Verbs that open a remark with "I" left out, or a set phrase, rather than advice: verbs of
 * feeling where speaker.ts fills no subject in ("Love seeing your progress": it leaves a
 * sentence with "you" alone), and "Bet it was fun", "Thank goodness", "Feel free to…", "Rest
 * assured…", "Respect for…".
 */
export const REMARK_VERBS: ReadonlySet<string> = new Set([
  'love',
  'hate',
  'miss',
  'prefer',
  'need',
  'want',
  'plan',
  'wish',
  'hope',
  'bet',
  'thank',
  'feel',
  'rest',
  'respect',
]);
/** Words that make a command a request to the speaker, or one the speaker joins in ("let's"). */
export const SPEAKER_WORDS: ReadonlySet<string> = new Set(['me', 'us', 'my', 'our', 'mine', 'ours', 'myself', 'ourselves']);
/** Words that point at something shown or said before. */
export const POINTING_WORDS: ReadonlySet<string> = new Set(['this', 'that', 'these', 'those', 'it', 'them']);
/** Particles a verb of a command takes before its object ("check out", "look for"). */
export const PARTICLES: ReadonlySet<string> = new Set([
  'out',
  'up',
  'in',
  'on',
  'at',
  'for',
  'into',
  'over',
  'about',
  'through',
  'off',
  'around',
  'down',
]);
/** Fewer words than this name nothing to do ("Stay strong, friend"). */
const MIN_WORDS = 5;

/**
 * Whether a command (its words, as the tagger read them; learn.ts has found it opens with a bare
 * verb) gives advice: at least five words, not a wish, no word for the speaker, its object no
 * pointer, and a noun after the verb that says what the advice is about.
 */
export function isAdvice(tokens: readonly Token[]): boolean {
  const words = tokens.filter((token) => token.text !== '');
  const [verb] = words;
  if (verb === undefined || words.length < MIN_WORDS || WISH_VERBS.has(verb.normal) || REMARK_VERBS.has(verb.normal)) return false;
  if (words.some((word) => SPEAKER_WORDS.has(word.normal) || /^let['’]s$/.test(word.normal))) return false;
  if (opensWithSubject(words) || words.some(droppedSubjectPast)) return false;
  let next = 1;
  while (next < words.length && PARTICLES.has(words[next]!.normal)) next++;
  if (POINTING_WORDS.has(words[next]?.normal ?? '')) return false;
  return words
    .slice(1)
    .some((word) => word.tags.has('Noun') && !word.tags.has('Pronoun') && !word.tags.has('Possessive') && !word.tags.has('Person'));
}

/**
 * Whether the first words are a noun the sentence says something of, not a verb ("Sleep before
 * a race is vital", "Fresh bread can be bought anywhere", "Choir practice starts at six"): a
 * copula or a modal comes before any pause, pronoun or other verb, or a verb in "-s" right after
 * the first word.
 */
function opensWithSubject(words: readonly Token[]): boolean {
  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    const tags = word.tags;
    if (tags.has('Copula') || tags.has('Modal')) return true;
    if (index === 1 && tags.has('Verb') && tags.has('PresentTense') && /s$/.test(word.normal) && !tags.has('Gerund')) return true;
    if (tags.has('Pronoun') || (tags.has('Verb') && !tags.has('Adjective') && !tags.has('Participle'))) return false;
    if (/[,;:–—-]$/.test(word.text)) return false;
  }
  return false;
}

/** A verb in the past with no auxiliary before it: the remark dropped its "I" ("Painted all weekend but finally finished the fence"). */
function droppedSubjectPast(word: Token, index: number, words: readonly Token[]): boolean {
  return (
    index > 0 &&
    word.tags.has('PastTense') &&
    !word.tags.has('Participle') &&
    !word.tags.has('Adjective') &&
    !(words[index - 1]?.tags.has('Auxiliary') ?? false)
  );
}

/** The fact advice makes: "<speaker>'s advice to <listener>: <what the command says>". */
export function adviceFact(speaker: string, listener: string, told: string): string {
  return `${possessive(speaker)} advice to ${listener}: ${told}`;
}
