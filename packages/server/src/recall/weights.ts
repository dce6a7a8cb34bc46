/**
 * The ranking's weights and thresholds, each with the reason it has. search.ts and ask.ts read
 * them from here; recall/ranking.test.ts holds a fixture space whose order (and scores) change
 * when any of them moves by 30% either way, and `npm run bench:rules` checks that it does.
 * Values were tuned on the LoCoMo development set (docs/benchmarks.md); change one only with
 * that bench run before and after.
 */

/** How much of a memory's score is how much of the question it covers. */
export const COVERAGE_WEIGHT = 0.8;
/** A memory whose subject (the first name it is about) is a person the question names: the asker expects the answer to be about them. */
export const NAME_CUE = 0.05;
/**
 * A memory whose subject is someone the question does not name keeps this share of its score,
 * when the question names someone who is the subject of memories found: "What did Ana plant?"
 * asks about Ana, and Ben's memories that share its words ("Ben planted tulips.", "Ben said Ana's
 * garden looks great") answer it far less often than Ana's own. In the best ten of LoCoMo's dev
 * questions naming one of the two speakers, 1.3 % of the other speaker's memories were evidence
 * against 14 % of the named one's; NAME_CUE's lift alone left them a third of the places.
 */
export const OTHER_SUBJECT_WEIGHT = 0.85;
/** A memory carrying a date, when the question asks when. */
export const DATE_CUE = 0.05;
/** A memory said in (or naming) the time a question asks about ("last week"). */
export const TIME_CUE = 0.15;
/** The newest memory of the matches gains this much over the oldest: later news replaces earlier. */
export const RECENCY_WEIGHT = 0.02;
/** How much Postgres's cover-density rank (the question's words close together) can add to the best few. */
export const RANK_WEIGHT = 0.1;

/** A question word found in the fact itself or the names it is about. */
export const OWN_LEVEL_WEIGHT = 1;
/** A question word found only in the rest of the fact's message: the message is about it, the fact may not be. */
export const MESSAGE_LEVEL_WEIGHT = 0.7;
/** A question word found only in the message the fact answers: the weakest tie. */
export const BEFORE_LEVEL_WEIGHT = 0.4;

/** A further fact of a message already listed keeps this share of its score (per fact before it), so other messages get a turn. */
export const SAME_PASSAGE = 0.5;
/**
 * A speaker's remark about something other than themselves ("Ana said it was a long day.")
 * keeps this share of its score: such remarks hold the evidence less often than other memories.
 */
export const REPORTED_WEIGHT = 0.9;
/** A synonym or related form counts this much of the word itself. */
export const RELATED_WEIGHT = 0.5;
/**
 * A word used where the question's word is used (its GloVe neighbour: "cakes" for "desserts")
 * counts this much of the word itself, times how alike the two are (0.55..1): less than a
 * synonym, since neighbours are often words of the same kind rather than of the same meaning.
 */
export const NEIGHBOUR_WEIGHT = 0.25;
/** A memory naming a kind of what the question asks for ("swimming" for "sport") counts this much of the word itself. */
export const BROADER_WEIGHT = 0.25;
/**
 * A question word the space has never seen weighs this much of the rarest word's weight: nothing
 * stored says it, so a memory sharing only the question's common words covers less of it.
 */
export const UNSEEN_WEIGHT = 1.5;
/**
 * For the judgement whether anything is known: a thing the question asks about (a noun or a
 * name) that the space has never seen weighs this much of the rarest word's weight. A question
 * about "my brother" in a space where no brother was ever said is about something not stored.
 */
export const UNSEEN_THING_WEIGHT = 2.5;
/**
 * … and an unseen word saying how the question asks (a verb or adjective: "old", "born", "owns")
 * or what kind of answer it wants ("Which instrument…", "What is my job?"): the answer is often
 * stored in other words ("is 9", "Rosa arrived", "plays the cello"), so such a word weighs little.
 */
export const UNSEEN_MANNER_WEIGHT = 0.3;

/**
 * Something is known about a question when one of its best memories (about the name it
 * names, if any) says at least this share of the question's weighted words in its own words.
 */
export const KNOWN_THRESHOLD = 0.22;
/**
 * A question only one kind of answer answers (answer-kind.ts: an amount, a name) is known when a
 * memory saying at least this share of what it is about (its words but those asking for a name),
 * or one said near such a memory, gives an answer of that kind. Below KNOWN_THRESHOLD: the answer
 * of the kind asked is itself most of what sets the memory apart ("Odile said Ghent is a
 * city to see." for "Which city did Odile suggest to Bram in March 2024?").
 */
export const KIND_THRESHOLD = 0.15;
/** Memories scoring below this are not returned at all (they share only a weak word or a synonym). */
export const FLOOR = 0.08;
/** Past the most any caller is shown, memories below this share of the best are left out too. */
export const RELATIVE_FLOOR = 0.25;
/** A question about a time alone ("What did I do last week?"): the score of a memory said in that span. */
export const SAID_IN_SPAN = 0.8;
/** … and of a memory that only names the span's month and year. */
export const MENTIONS_SPAN = 0.6;

/** Memories scoring at least this share of the best one support ask's written answer. */
export const SUPPORT_SHARE = 0.9;
