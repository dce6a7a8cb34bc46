import type { MemoryKind } from './types.js';

/** Words of the sentence that tie what it says to the days around when it was said. */
const NOW_WORDS =
  /\b(?:this|next|coming) (?:week|weekend|month|morning|afternoon|evening|summer|winter|spring|autumn|fall|semester|term)\b|\b(?:today|tonight|tomorrow|currently|right now|at the moment|these days|lately|recently|nowadays|for now|so far|this year|just (?:started|moved|got|joined|finished|began))\b/i;
/** States that pass: how someone feels, what they are in the middle of. */
const PASSING_STATES =
  /\b(?:is|are|am|feels?|felt|has been|have been|was)\s+(?:\w+ly\s+|so\s+|very\s+|a bit\s+|really\s+)?(?:tired|exhausted|sick|ill|stressed|anxious|nervous|worried|busy|excited|upset|sad|happy about|recovering|injured|pregnant|on (?:leave|holiday|vacation)|away|looking for|trying to|working on|reading|learning|training for|preparing|studying for|waiting for|dealing with|in the middle of)\b/i;
/** Where someone lives and works, as a fact stated now: these change (a move, a new job). */
const HOME_AND_WORK =
  /\b(?:lives|is living|is based|moved|has moved|relocated|works|is working|started working|got a (?:new )?job|took a (?:new )?job|has a new job|started a new job|joined|is employed)\b/i;

/** Background: where someone comes from stays true whatever moves come after. */
const BACKGROUND = /\b(?:grew up|was born|were born|is from|are from|comes from|originally from|studied|graduated)\b/i;
/** A change of job said as news. */
const JOB_NEWS = /\b(?:found a (?:new )?job|changed jobs|new job|got promoted|was promoted|quit|resigned|retired)\b/i;

/**
 * Whether a fact lasts (who someone is, their relationships, stable likes, their background)
 * rather than holding for now (plans, passing states, where they live and work now, what the
 * days around it bring). Read from the fact's wording and the sentence it came from, whose
 * "this week" or "currently" the fact's absolute dates no longer show.
 */
export function isLasting(text: string, sentence: string, kind: MemoryKind): boolean {
  if (kind === 'plan') return false;
  if (NOW_WORDS.test(sentence) || NOW_WORDS.test(text)) return false;
  if (PASSING_STATES.test(text)) return false;
  if (BACKGROUND.test(text)) return true;
  if (JOB_NEWS.test(text)) return false;
  if (kind !== 'pref' && HOME_AND_WORK.test(text)) return false;
  return true;
}
