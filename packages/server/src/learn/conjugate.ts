/**
 * Verb forms for a subject turned from "I" or "you" into a name ("I love" -> "Omar loves").
 * Modal verbs and past tenses are the same for every person, so they stay as they are.
 */
const irregular: Record<string, string> = {
  am: 'is',
  are: 'is',
  were: 'was',
  be: 'is',
  have: 'has',
  do: 'does',
  go: 'goes',
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
  "weren't": "wasn't",
  "ain't": "isn't",
  dont: "doesn't",
  wanna: 'wants to',
  gotta: 'has to',
  gonna: 'is going to',
};

/** Verbs that never take -s: modals, and forms that are the same for everyone. */
const unchanged = new Set([
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'ought',
  'cannot',
  "can't",
  "couldn't",
  "won't",
  "wouldn't",
  "shouldn't",
  "mustn't",
  "mightn't",
  "shan't",
  'was',
  "wasn't",
  'did',
  "didn't",
  'had',
  "hadn't",
  'used',
  'got',
  'gotten',
  'been',
  // Common irregular past tenses, for when no tags are at hand.
  'went',
  'saw',
  'made',
  'took',
  'came',
  'gave',
  'found',
  'thought',
  'told',
  'felt',
  'left',
  'kept',
  'knew',
  'met',
  'ran',
  'sat',
  'said',
  'spent',
  'began',
  'bought',
  'brought',
  'caught',
  'taught',
  'wrote',
  'drove',
  'ate',
  'drank',
  'flew',
  'grew',
  'heard',
  'held',
  'lost',
  'meant',
  'paid',
  'sold',
  'sent',
  'slept',
  'spoke',
  'stood',
  'understood',
  'won',
  'wore',
  'built',
  'chose',
  'fell',
  'fought',
  'forgot',
  'hid',
  'rode',
  'sang',
  'swam',
  'threw',
  'woke',
  'became',
  'did',
]);

/**
 * Present and past look alike for these, so a past-tense sentence keeps them ("I read it
 * yesterday" is not "reads"), and their tense is read from the words around them (learn/tense.ts).
 */
export const SAME_IN_PAST: ReadonlySet<string> = new Set([
  'read',
  'put',
  'cut',
  'hit',
  'set',
  'let',
  'quit',
  'shut',
  'hurt',
  'cost',
  'spread',
  'bet',
  'split',
  'upset',
  'cast',
  'burst',
  'broadcast',
]);

/** Present verbs that end in "ed" as past tenses do ("I need a break" → "needs"). */
const presentInEd = new Set(['need', 'feed', 'bleed', 'speed', 'breed', 'proceed', 'succeed', 'exceed', 'heed', 'shed', 'wed']);

/** Verbs compromise sometimes tags as something else after "you" ("you like it"). */
const commonVerbs = new Set([
  'like',
  'love',
  'need',
  'miss',
  'want',
  'mean',
  'hope',
  'think',
  'know',
  'feel',
  'work',
  'live',
  'play',
  'make',
]);

export interface VerbContext {
  /** compromise's tags for the word, when it tagged it. */
  tags?: ReadonlySet<string>;
  /** Whether the sentence is in the past tense. */
  past?: boolean;
}

/**
 * The third-person singular of a verb that followed "I" or "you", or null when it must not
 * change (a modal, a past tense, or a word that is not a verb). Keeps a leading capital.
 */
export function thirdPerson(word: string, context: VerbContext = {}): string | null {
  const lower = word.toLowerCase().replace(/’/g, "'");
  const tags = context.tags;
  let result: string | null;
  const known = Object.hasOwn(irregular, lower) ? irregular[lower] : undefined;
  if (known !== undefined) result = known;
  else if (unchanged.has(lower)) result = null;
  else if (context.past === true && SAME_IN_PAST.has(lower)) result = null;
  else if (tags !== undefined && tags.size > 0 && !isPresentVerb(tags) && !commonVerbs.has(lower)) result = null;
  else if (tags === undefined || tags.size === 0 ? (/ed$/.test(lower) && !presentInEd.has(lower)) || !/^[a-z]+$/.test(lower) : false)
    result = null;
  else result = addS(lower);
  if (result === null) return null;
  if (/[’]/.test(word)) result = result.replace(/'/g, '’');
  return /^[A-Z]/.test(word) ? result.charAt(0).toUpperCase() + result.slice(1) : result;
}

function isPresentVerb(tags: ReadonlySet<string>): boolean {
  if (!tags.has('Verb')) return false;
  if (tags.has('PastTense') || tags.has('Gerund') || tags.has('Participle') || tags.has('Modal')) return false;
  return tags.has('Infinitive') || tags.has('PresentTense');
}

/** Regular spelling of the -s form: watch -> watches, try -> tries, love -> loves. */
export function addS(verb: string): string {
  if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}
