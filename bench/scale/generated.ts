import { factFingerprint } from '../../packages/server/dist/learn/index.js';
import type { FactToStore } from '../../packages/server/dist/store/memory-repository.js';

/**
 * The scale runs' generated space (bench/scale/run.ts, serve-memory.ts): a deterministic generator
 * of names, verbs, things and places drawn with a skew, so that some words are everywhere and most
 * are rare, as in real notes. Each process that imports it draws the same sequence.
 */

let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const skewed = <T>(items: T[]) => items[Math.floor(items.length * random() ** 2)]!;
const syllables = ['ka', 'lo', 'mi', 'ren', 'tav', 'os', 'ul', 'bri', 'den', 'sa', 'vor', 'ine', 'pet', 'ra', 'zu', 'gal'];
const word = (parts: number) => Array.from({ length: parts }, () => syllables[Math.floor(random() * syllables.length)]).join('');
const capital = (text: string) => text[0]!.toUpperCase() + text.slice(1);
const PEOPLE = Array.from({ length: 60 }, () => capital(word(2)));
const PLACES = Array.from({ length: 400 }, () => capital(word(3)));
const THINGS = Array.from({ length: 4_000 }, () => word(3));
const VERBS = ['bought', 'painted', 'fixed', 'sold', 'found', 'cooked', 'planted', 'visited', 'borrowed', 'carved', 'repaired', 'ordered'];
const ADJECTIVES = ['old', 'red', 'small', 'heavy', 'new', 'green', 'quiet', 'bright', 'wooden', 'broken', 'rare', 'cheap'];

/** One generated sentence said on `day`, and the person it is about. */
export function sentence(day: number): { text: string; about: string[] } {
  const person = skewed(PEOPLE);
  const text = `${person} ${skewed(VERBS)} a ${skewed(ADJECTIVES)} ${skewed(THINGS)} in ${skewed(PLACES)} on day ${day}.`;
  return { text, about: [person] };
}

/** The `index`th generated memory, as the learner would store it. */
export function fact(index: number): FactToStore {
  const { text, about } = sentence(index % 365);
  return {
    text,
    kind: 'detail',
    about,
    date: new Date(Date.UTC(2025, 0, 1) + (index % 365) * 86_400_000).toISOString().slice(0, 10),
    fingerprint: factFingerprint(`${text} #${index}`),
    sentence: { text, messageIndex: null, start: 0, end: text.length },
    // Generated sentences of invented words: nothing broader, no kinds of names, no places around.
    index: { broader: '', kinds: '', around: '' },
  };
}

/** Four questions of the generated space's kinds. */
export const questions = () => [
  `What did ${skewed(PEOPLE)} buy?`,
  `Where did ${skewed(PEOPLE)} paint the ${skewed(THINGS)}?`,
  `Who fixed a ${skewed(ADJECTIVES)} ${skewed(THINGS)}?`,
  `What did ${skewed(PEOPLE)} do in ${skewed(PLACES)}?`,
];

/** Ten short facts in one note. */
export const note = (index: number) => Array.from({ length: 10 }, (_, line) => sentence(index + line).text).join(' ');
