import { MONTH_WORDS, WEEKDAY_WORDS } from '../text/calendar.js';
import { lexiconTags } from '../text/lexicon.js';
import type { Token } from '../text/tokens.js';

/** Tags compromise gives to names of people, places and organisations. */
const nameTags = ['Person', 'Place', 'Organization', 'ProperNoun'];
/** Small words allowed inside a longer name ("Bank of America", "Lord of the Rings"). */
const joiners = new Set(['of', 'the', 'and', '&', 'de', 'la', 'van', 'von', 'du', 'del', 'da']);
/** Titles that end in a dot without ending the name ("Dr. Smith"). */
const titles = new Set(['dr', 'mr', 'mrs', 'ms', 'mx', 'prof', 'st', 'mt', 'rev', 'sr', 'jr']);
/**
 * Capitalised words that are not names of anything: the pronoun I, words people capitalise
 * for emphasis or address, and calendar words (dates are carried by the text, not by `about`).
 */
const notNames = new Set([
  'i',
  "i'm",
  "i've",
  "i'd",
  "i'll",
  'mom',
  'dad',
  'mum',
  'mommy',
  'daddy',
  'ok',
  'okay',
  'oh',
  'hey',
  'hi',
  'hello',
  'wow',
  'thanks',
  'lol',
  'omg',
  'yeah',
  'yes',
  'no',
  'god',
  'sir',
  'madam',
  'bro',
  'sis',
  'dude',
  'guys',
  'btw',
  'haha',
  ...MONTH_WORDS,
  ...WEEKDAY_WORDS,
  'today',
  'tomorrow',
  'yesterday',
  'tonight',
]);

/**
 * Names of people, places, organisations and things in a run of tokens (one sentence): words
 * compromise tags as names, and runs of capitalised words inside the sentence ("Star Wars",
 * "LGBTQ"). A capitalised first word counts only when compromise knows it as a name, since
 * every sentence starts with a capital. Names are normalised (possessive and surrounding
 * punctuation removed) and deduplicated without regard to case, in order of appearance.
 */
export function findNames(text: string, tokens: readonly Token[], sentenceStart: number): string[] {
  const names: string[] = [];
  let run: Token[] = [];
  const flush = (): void => {
    while (run.length > 0 && joiners.has(run.at(-1)!.normal)) run.pop();
    const [first] = run;
    const last = run.at(-1);
    if (first !== undefined && last !== undefined) addName(names, normaliseName(text.slice(first.start, last.end)));
    run = [];
  };
  const words = tokens.filter((token) => token.text !== '');
  words.forEach((token, index) => {
    const capitalised = /^\p{Lu}/u.test(token.text);
    const tagged = nameTags.some((tag) => token.tags.has(tag));
    const bare = token.normal.replace(/['’]s$/, '').replace(/[^\p{L}\p{N}&'’.-]/gu, '');
    const first = token.start === sentenceStart || isAfterSentenceOpener(text, sentenceStart, token.start);
    const acronym = /^\p{Lu}{2,}\d*$/u.test(token.text.replace(/['’]s$/, ''));
    const isNameWord = capitalised && !notNames.has(bare) && (first ? tagged && !token.tags.has('Pronoun') : true);
    if (isNameWord || (acronym && !notNames.has(bare))) {
      run.push(token);
    } else if (run.length > 0 && joiners.has(token.normal) && !joinsTwoPeople(token, run.at(-1)!, words[index + 1])) {
      run.push(token);
    } else {
      flush();
    }
    // Punctuation after a word ends a name, except the dot of a title ("Dr. Smith").
    const after = text.slice(token.end, words[index + 1]?.start ?? token.end + 1);
    if (/[^\s'’-]/u.test(after) && !(after.trim() === '.' && titles.has(token.normal.replace(/\.$/, '')))) flush();
  });
  flush();
  return names;
}

/** "Aisha and Boris" is two people, where "Marks and Spencer" is one name. */
function joinsTwoPeople(joiner: Token, before: Token, after: Token | undefined): boolean {
  if (joiner.normal !== 'and' && joiner.normal !== '&') return false;
  return before.tags.has('Person') && after !== undefined && after.tags.has('Person');
}

/** A word right after an opening quote, bullet or interjection is still the start of the sentence. */
function isAfterSentenceOpener(text: string, sentenceStart: number, position: number): boolean {
  return /^[\s"'“‘([*-]*$/u.test(text.slice(sentenceStart, position));
}

/** "Omar's" -> "Omar", "“Star Wars”," -> "Star Wars". */
export function normaliseName(name: string): string {
  return name
    .replace(/\s+/g, ' ')
    .replace(/['’]s$|['’]$/u, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.]+$/gu, '')
    .replace(/(?<!\b\p{Lu})\.$/u, '')
    .trim();
}

/** Adds a name unless one equal to it (ignoring case) is already there. */
export function addName(names: string[], name: string): void {
  if (name === '') return;
  const lower = name.toLowerCase();
  if (!names.some((existing) => existing.toLowerCase() === lower)) names.push(name);
}

const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'Person']);

/** Whether the lexicon leaves `word` (lower case) free to be a name: unknown to it, or known as one ("jo", not "me"). */
export function couldBeName(word: string): boolean {
  const tags = lexiconTags(word);
  return tags.length === 0 || tags.some((tag) => NAME_TAGS.has(tag));
}
