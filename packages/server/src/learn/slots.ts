import { DIETS } from '../text/diets.js';

/**
 * Slots: facts that hold one value at a time for their subject (where someone lives, where
 * or as what they work, who their partner is, their age, their diet, a favourite). A later fact in the
 * same slot replaces the earlier one; facts that only add to what is known have no slot.
 */

/** A subject the learner writes: one to three capitalised words ("Omar", "Ana Lima"), or "The user". */
const SUBJECT = String.raw`(The user|\p{Lu}[\p{L}’'-]*(?: \p{Lu}[\p{L}’'-]*){0,2})`;

const PATTERNS: [attribute: string, pattern: RegExp][] = [
  // "Omar lives in Lisbon", "Omar moved to Berlin on 3 May 2026"; a plan ("is moving to") is not a change yet.
  [
    'home',
    new RegExp(
      `^${SUBJECT} (?:now |still )?(?:lives|is living|has lived|has been living|moved|has moved|relocated|has relocated|is based|is now based)(?: back)?(?: from (?:the )?\\p{Lu}[\\p{L}'’-]*(?: \\p{Lu}[\\p{L}'’-]*)*)? (?:to|in) (?:the )?\\p{Lu}`,
      'u',
    ),
  ],
  [
    'work',
    new RegExp(
      `^${SUBJECT} (?:now |still )?(?:works|is working|has worked|started working|got a (?:new )?job|took a (?:new )?job|found a (?:new )?job|has a new job|started a new job)(?: remotely| from home| full[- ]time| part[- ]time| freelance)?(?: as an?| at| for)\\b`,
      'u',
    ),
  ],
  // "Omar started at Halden on Monday", "Omar accepted the job at Halden", "Omar has been a graphic
  // designer at Halden": a workplace named by its capital (a role: a noun of a doer, "-er", "-ist", …).
  [
    'work',
    new RegExp(
      `^${SUBJECT} (?:just )?(?:started (?:full[- ]time |part[- ]time )?at|(?:got|accepted|took|landed) the (?:new )?(?:job|position|role) at|(?:is|has been) (?:now )?an? (?:\\p{Ll}[\\p{Ll}-]* ){0,2}\\p{Ll}*(?:er|or|ist|ant|ent|ian|man|woman|nurse|chef|cook|clerk|coach|medic|barista|intern) at) \\p{Lu}`,
      'u',
    ),
  ],
  // "Omar got laid off", "Omar is between jobs": no workplace now, so the one said before is no longer current.
  [
    'work',
    new RegExp(
      `^${SUBJECT} (?:just )?(?:(?:is|has been) (?:now |still )?(?:between jobs|unemployed|out of work)|(?:got|was|has been) (?:laid off|let go|made redundant|fired)|(?:quit|quits|left|lost) (?:their|his|her|the user['’]s|\\p{Lu}[\\p{L}'’-]*['’]s) job|(?:has )?retired)\\b`,
      'u',
    ),
  ],
  [
    'partner',
    new RegExp(
      `^${SUBJECT} (?:is|got|has been|was just) (?:married|engaged) to\\b|^${SUBJECT} (?:is dating|started dating|is single|broke up with|divorced)\\b` +
        // "Omar's wife is called Ines": the fact says no more than who the partner is.
        `|^${SUBJECT}['’]s (?:husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?|spouse)(?:['’]s name)? is (?:called |named )?\\p{Lu}[\\p{L}'’-]*(?: \\p{Lu}[\\p{L}'’-]*)?\\.?$`,
      'u',
    ),
  ],
  ['age', new RegExp(`^${SUBJECT} (?:is|turned|has turned) \\d{1,3}(?: years old)?\\b`, 'u')],
  // "Omar is vegan", "Omar has been vegetarian for years", "Omar went vegan", "Omar is pescatarian now, not vegan".
  [
    'diet',
    new RegExp(
      `^${SUBJECT} (?:is|has been|became|has become|went|has gone|turned) (?:now |still |fully |strictly |mostly |a |an |a strict |a lifelong )*(?:${DIETS.join('|')})\\b(?!-| (?:food|recipes?|restaurants?|places?|options?|dishes|meals?|friends?|friendly|cookbooks?|diets?)\\b)`,
      'u',
    ),
  ],
];

/** "Omar's favourite film is …" → favourite-film. */
const FAVOURITE = new RegExp(`^${SUBJECT}(?:’s|'s) (?:favou?rite|favorite) ([a-z]+(?: [a-z]+)?) (?:is|are)\\b`, 'u');

/**
 * "I live in Figma all day", "I live in Slack 24/7": living in a thing all the time is spending
 * one's time there, not one's home.
 */
export const FIGURATIVE_LIVING = ['all day', 'all night', 'all week', 'all weekend', 'all the time', '24/7'];
const figurativeLiving = new RegExp(`\\b(?:${FIGURATIVE_LIVING.map((words) => words.replace('/', '\\/')).join('|')})(?![\\p{L}\\d])`, 'iu');

/** The slot of a fact ("omar|home"), or null when the fact adds to what is known rather than changing it. */
export function slotOf(written: string, about: readonly string[] = []): string | null {
  if (/\?$/.test(written)) return null;
  // A label before the news ("Quick update: the user moved to Oslo") is not its subject.
  const label = /^(?:[\p{L}'’-]+ ){0,2}[\p{L}'’-]+:\s+(?=\S)/u.exec(written);
  const text = label === null ? written : written.charAt(label[0].length).toUpperCase() + written.slice(label[0].length + 1);
  const favourite = FAVOURITE.exec(text);
  if (favourite) return slotKey(favourite[1]!, `favourite-${favourite[2]!.replace(/^(?:book|novel)s?$/, 'book')}`, about);
  for (const [attribute, pattern] of PATTERNS) {
    const match = pattern.exec(text);
    if (!match || (attribute === 'home' && figurativeLiving.test(text))) continue;
    const subject = match.slice(1).find((group) => group !== undefined);
    if (subject) return slotKey(subject, attribute, about);
  }
  return null;
}

function slotKey(subject: string, attribute: string, about: readonly string[]): string | null {
  // The subject must be the person the fact is about, not a capitalised word that opens it ("Yesterday").
  if (subject !== 'The user' && !about.some((name) => name.toLowerCase() === subject.toLowerCase())) return null;
  return `${subject.toLowerCase()}|${attribute}`;
}
