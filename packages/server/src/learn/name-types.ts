import { placeClasses } from '../recall/synonyms.js';
import nlp from '../text/nlp.js';
import type { Token } from '../text/tokens.js';
import type { NameType } from './types.js';

/** Last words that make a name an organisation ("Acme Robotics", "Riverside Bakery", "Elm Street Club"); compromise already reads "… Inc", "… Ltd" and "… Co". */
const ORG_WORDS = new Set(
  'llc gmbh corp corporation company labs lab robotics systems technologies tech software studio studios group bank university college school academy institute hospital clinic club cafe café bakery restaurant bar agency foundation society association council ministry press records airlines motors partners consulting'.split(
    ' ',
  ),
);
/** Last words that make a name a place ("Elm Street", "Lake Como", "Central Park"). */
const PLACE_WORDS = new Set(
  'street road avenue lane park lake river mountain mountains island islands beach bay valley city county state square bridge hill hills coast'.split(
    ' ',
  ),
);
/** Words before a name that say it is a person ("my friend Ravi", "her husband Tom", "with Ana"). */
const PERSON_BEFORE =
  /\b(?:mother|mom|mum|father|dad|parents?|sister|brother|sibling|son|daughter|kid|child|baby|husband|wife|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|friend|bestie|cousin|aunt|uncle|niece|nephew|grandma|grandmother|grandpa|grandfather|colleague|co-?worker|coworker|boss|manager|mentor|neighbou?r|roommate|classmate|teammate|named|called|met|told|asked|with|and)\s+$/i;
/** Words after a name that say it is a person ("Ravi said", "Ravi is a nurse", "Ravi works"). */
const PERSON_AFTER =
  /^(?:['’]s\s+(?:mother|mom|mum|father|dad|parents|sister|brother|son|daughter|kids?|children|husband|wife|partner|boyfriend|girlfriend|friend|birthday|wedding|job|boss)\b|\s+(?:said|says|told|thinks|feels|is an?|was an?|works|worked|lives|lived|moved|loves|likes|hates|wants|plans|got|has|had|started|joined|married)\b)/i;
/** Words before a name that say it is an organisation ("works at Acme", "a job at Globex", "joined Initech"). */
const ORG_BEFORE =
  /\b(?:works? (?:at|for)|working (?:at|for)|worked (?:at|for)|job (?:at|with)|joined|hired by|interned at|employed by|company|startup|firm)\s+(?:the\s+)?$/i;
/** Words before a name that say it is a place ("moved to Lisbon", "lives in Porto", "a trip to Oslo"). */
const PLACE_BEFORE =
  /\b(?:in|to|from|near|into|around|across|visit|visited|visiting|moved to|move to|moving to|trip to|flew to|lives in|living in|back to|out of)\s+(?:the\s+)?$/i;

/**
 * What each name of a fact names: a person, a place, an organisation or another thing. The
 * people talking are people; then what compromise tagged the name as in its sentence; then
 * the places WordNet knows; then the words around the name ("works at …" an organisation,
 * "moved to …" a place, "my friend …" a person) and the words it ends with ("… Bakery",
 * "… Street"); a lone first name compromise knows is a person. Anything else is a thing.
 */
export function nameTypes(
  names: readonly string[],
  context: { text: string; tokens: readonly Token[]; start: number; end: number; people: readonly (string | null)[] },
): NameType[] {
  const sentence = context.text.slice(context.start, context.end);
  const lowerSentence = sentence.toLowerCase();
  const people = new Set(context.people.filter((name): name is string => name !== null).map((name) => name.toLowerCase()));
  return names.map((name) => {
    if (people.has(name.toLowerCase())) return 'person';
    const at = lowerSentence.indexOf(name.toLowerCase());
    if (at < 0) return typeOfName(name);
    const start = context.start + at;
    const end = start + name.length;
    const tags = new Set<string>();
    for (const token of context.tokens) if (token.start < end && token.end > start) for (const tag of token.tags) tags.add(tag);
    return typeInSentence(name, tags, sentence.slice(0, at), sentence.slice(at + name.length));
  });
}

function typeInSentence(name: string, tags: ReadonlySet<string>, before: string, after: string): NameType {
  const last = lastWord(name);
  if (ORG_WORDS.has(last)) return 'org';
  if (tags.has('Organization')) return 'org';
  if (tags.has('Place') || tags.has('City') || tags.has('Country')) return 'place';
  if (PLACE_WORDS.has(last) && name.includes(' ')) return 'place';
  if (tags.has('Person') && !tags.has('Pronoun')) return 'person';
  if (placeClasses(name).length > 0) return 'place';
  if (ORG_BEFORE.test(before)) return 'org';
  if (PLACE_BEFORE.test(before) && !isFirstName(name)) return 'place';
  if (/^\p{Lu}[\p{Ll}’'-]+(?: \p{Lu}[\p{Ll}’'-]+)?$/u.test(name) && (PERSON_BEFORE.test(before) || PERSON_AFTER.test(after)))
    return 'person';
  return typeOfName(name);
}

const nameCache = new Map<string, NameType>();

/**
 * What a name names when only the name is known (no sentence around it): compromise's lexicon
 * and WordNet's places, else a thing. Cached per name.
 */
export function typeOfName(name: string): NameType {
  const known = nameCache.get(name);
  if (known !== undefined) return known;
  let type: NameType = 'thing';
  const last = lastWord(name);
  if (ORG_WORDS.has(last)) type = 'org';
  else if (placeClasses(name).length > 0 || (PLACE_WORDS.has(last) && name.includes(' '))) type = 'place';
  else {
    const doc = nlp(name);
    if (doc.has('#Organization')) type = 'org';
    else if (doc.has('#Place')) type = 'place';
    else if (doc.has('#Person') && !doc.has('#Pronoun')) type = 'person';
  }
  if (nameCache.size > 50_000) nameCache.clear();
  nameCache.set(name, type);
  return type;
}

function isFirstName(name: string): boolean {
  return !name.includes(' ') && nlp(name).has('#FirstName');
}

function lastWord(name: string): string {
  return (name.split(/\s+/).at(-1) ?? '').toLowerCase().replace(/[^\p{L}]/gu, '');
}
