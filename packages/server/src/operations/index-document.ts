import type { LearnedFact } from '../learn/index.js';
import { factFingerprint } from '../learn/index.js';
import { broaderText, nameKinds, surroundingPlaces } from '../recall/synonyms.js';
import type { FactToStore, IndexDocument } from '../store/memory-repository.js';

/**
 * What a fact is found by besides its own words: its nouns' broader words, what its names are,
 * and the places around its places (WordNet and the name lists). Worked out before the store's
 * transaction opens, so that no lookup holds a connection.
 */
export function indexDocumentOf(text: string, about: string[]): IndexDocument {
  return { broader: broaderText(text), kinds: nameKinds(text, about), around: surroundingPlaces(text) };
}

/** A learned fact as the store keeps it: with its fingerprint and its index document. */
export function toStore(fact: LearnedFact): FactToStore {
  return {
    text: fact.text,
    kind: fact.kind,
    about: fact.about,
    date: fact.date,
    fingerprint: factFingerprint(fact.text),
    sentence: fact.sentence,
    context: fact.context,
    before: fact.before,
    slot: fact.slot,
    reported: fact.reported,
    nameTypes: fact.nameTypes,
    lasting: fact.lasting,
    owner: fact.owner,
    index: indexDocumentOf(fact.text, fact.about),
  };
}
