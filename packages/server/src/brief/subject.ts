import type { GraphNode } from '@engram/protocol';
import { typeOfName } from '../learn/name-types.js';
import { normaliseName } from '../learn/names.js';
import type { NameType } from '../learn/types.js';
import type { NamedMemory } from '../store/people-repository.js';

/** What indexing names reads of a memory. */
type Naming = Pick<NamedMemory, 'id' | 'about' | 'name_types' | 'owner' | 'text'>;

/** How the learner writes the owner when it has no name for them; it is never in `about`. */
export const OWNER_LABEL = 'The user';

/** Words that ask for the owner (or the speaker of the space's user messages) by themselves. */
const OWNER_WORDS = new Set(['i', 'me', 'my', 'mine', 'myself', 'the user', 'user', 'owner']);

/**
 * The key a name is merged under: "Maya", "Maya's", "maya" and "MAYA’S" are one. Possessives and
 * surrounding punctuation go, spaces are tidied, and case is ignored.
 */
export function nameKey(name: string): string {
  let key = keyCache.get(name);
  if (key === undefined) {
    key = normaliseName(name.replace(/’/g, "'").replace(/'S$/u, "'s")).replace(/\s+/g, ' ').toLowerCase();
    // Names repeat across a space's memories; the names a server meets are unbounded, so the cache starts again when full.
    if (keyCache.size >= 50_000) keyCache.clear();
    keyCache.set(name, key);
  }
  return key;
}
const keyCache = new Map<string, string>();

/** One someone or something the memories name, with every memory that names it. */
export interface Entity {
  key: string;
  /** The spelling used most, capitals preferred. */
  name: string;
  type: NameType;
  /** Ids of the memories naming it, newest first. */
  memoryIds: number[];
  /** Whether it is the owner of the space. */
  owner: boolean;
}

/** The someones and somethings a space's memories name, and which of them each memory names. */
export interface NameIndex {
  entities: Map<string, Entity>;
  /** The keys each memory names, by memory id. */
  keysOf: Map<number, string[]>;
  /** The owner's key (their name when the space's user messages give one, else the owner label's). */
  ownerKey: string;
}

/**
 * Indexes the names of memories (newest first). A memory of the owner (see NamedMemory.owner)
 * names the owner, under their name when `ownerName` gives one (the name the space's user
 * messages carry), else as "The user". Nothing is inferred: a memory names what its own
 * `about` holds, and the owner only when the learner wrote it of the owner.
 */
export function indexNames(memories: readonly Naming[], ownerName: string | null): NameIndex {
  const ownerKey = nameKey(ownerName ?? OWNER_LABEL);
  const spellings = new Map<string, Map<string, number>>();
  const votes = new Map<string, Map<NameType, number>>();
  const entities = new Map<string, Entity>();
  const keysOf = new Map<number, string[]>();
  const add = (key: string, spelling: string, type: NameType | null, memoryId: number) => {
    let entity = entities.get(key);
    if (!entity) {
      entity = { key, name: spelling, type: 'thing', memoryIds: [], owner: key === ownerKey };
      entities.set(key, entity);
      spellings.set(key, new Map());
      votes.set(key, new Map());
    }
    if (entity.memoryIds.at(-1) !== memoryId) entity.memoryIds.push(memoryId);
    const spelled = spellings.get(key)!;
    spelled.set(spelling, (spelled.get(spelling) ?? 0) + 1);
    if (type !== null) votes.get(key)!.set(type, (votes.get(key)!.get(type) ?? 0) + 1);
  };
  for (const memory of memories) {
    const keys: string[] = [];
    memory.about.forEach((raw, index) => {
      const key = nameKey(raw);
      if (key === '' || keys.includes(key)) return;
      keys.push(key);
      const known = memory.name_types?.length === memory.about.length ? (memory.name_types[index] as NameType) : null;
      const spelling = normaliseName(raw);
      add(key, spelling, known ?? typeOfName(spelling), memory.id);
    });
    if (isOfOwner(memory) && !keys.includes(ownerKey)) {
      keys.push(ownerKey);
      add(ownerKey, ownerName ?? OWNER_LABEL, 'person', memory.id);
    }
    if (keys.length > 0) keysOf.set(memory.id, keys);
  }
  for (const entity of entities.values()) {
    entity.name = bestSpelling(spellings.get(entity.key)!);
    entity.type = entity.owner ? 'person' : topVote(votes.get(entity.key)!);
  }
  return { entities, keysOf, ownerKey };
}

/** Whether the learner wrote a memory of the owner (memories learned before it recorded so: by their wording). */
export function isOfOwner(memory: Pick<NamedMemory, 'owner' | 'text'>): boolean {
  return memory.owner ?? /\bthe user\b/i.test(memory.text);
}

/** The most used spelling; among equals, the one with the most capitals, then the first in order. */
function bestSpelling(spellings: Map<string, number>): string {
  let best = '';
  let bestScore = -1;
  for (const [spelling, count] of spellings) {
    const score = count * 100 + (spelling.match(/\p{Lu}/gu)?.length ?? 0);
    if (score > bestScore) [best, bestScore] = [spelling, score];
  }
  return best;
}

const TYPE_ORDER: NameType[] = ['person', 'place', 'org', 'thing'];

/** The type most memories give a name; ties go to person, then place, then org. */
function topVote(votes: Map<NameType, number>): NameType {
  let best: NameType = 'thing';
  let most = 0;
  for (const type of TYPE_ORDER) {
    const count = votes.get(type) ?? 0;
    if (count > most) [best, most] = [type, count];
  }
  return best;
}

/** Who a subject turned out to be: an entity's key, or null when no memory names them. */
export interface ResolvedSubject {
  key: string | null;
  /** The entity's name when found, else the subject as asked (the owner's label when left out). */
  name: string;
}

/**
 * The entity a subject asks for. Left out, or "I", "me", "my", "myself": the owner. Otherwise
 * the name ignoring case, surrounding space and a possessive ("maya's" is Maya); failing that,
 * a first name used alone when exactly one name starts with it ("Sally" for Sally Rooney).
 * An ambiguous first name finds no one rather than a guess.
 */
export function resolveSubject(index: NameIndex, subject: string | undefined): ResolvedSubject {
  const asked = subject?.trim() ?? '';
  const owner = index.entities.get(index.ownerKey);
  if (asked === '' || OWNER_WORDS.has(asked.toLowerCase())) {
    return {
      key: owner ? owner.key : null,
      name: owner?.name ?? (index.ownerKey === nameKey(OWNER_LABEL) ? OWNER_LABEL : titleOf(index.ownerKey)),
    };
  }
  const key = nameKey(asked);
  const exact = index.entities.get(key);
  if (exact) return { key: exact.key, name: exact.name };
  if (!key.includes(' ')) {
    const starting = [...index.entities.values()].filter((entity) => entity.key.split(' ')[0] === key);
    if (starting.length === 1) return { key: starting[0]!.key, name: starting[0]!.name };
  }
  return { key: null, name: normaliseName(asked) || asked };
}

function titleOf(key: string): string {
  return key.replace(/(^|\s)\p{Ll}/gu, (letter) => letter.toUpperCase());
}

/** A node's id: its key with spaces as dashes ("st-james-hospital"), unique within one graph. */
export function nodeId(key: string): string {
  return key.replace(/\s+/g, '-');
}

/** The API node of an entity. */
export function toGraphNode(entity: Entity): GraphNode {
  return { id: nodeId(entity.key), name: entity.name, type: entity.type, memories: entity.memoryIds.length };
}
