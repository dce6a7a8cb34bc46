import type { MemoryKind, ProfileItem, ProfileResponse } from '@engram/protocol';
import { isLasting } from '../learn/lasting.js';
import type { Db } from '../store/database.js';
import type { NamedMemory } from '../store/people-repository.js';
import { namedMemories, ownerNameOf } from '../store/people-repository.js';
import type { Scope } from '../store/scope.js';
import type { NameIndex, ResolvedSubject } from './subject.js';
import { indexNames, OWNER_LABEL, resolveSubject } from './subject.js';

const KINDS: MemoryKind[] = ['people', 'plan', 'pref', 'detail'];
/** How much a kind of fact tells about someone: who they are and whom they have, most. */
const KIND_WEIGHT: Record<MemoryKind, number> = { people: 5, pref: 3, plan: 3, detail: 1 };

/**
 * How telling a memory is of a subject: its kind (identity and relationships most), whether
 * the subject is what the sentence is about (it opens with their name) rather than one of
 * several names, the latest value of a fact that changed, and a speaker's passing remark least.
 */
export function tellingScore(memory: NamedMemory, subjectName: string): number {
  let score = KIND_WEIGHT[memory.kind];
  if (opensWith(memory.text, subjectName)) score += 3;
  if (memory.reported || / said /.test(memory.text.slice(0, 40))) score -= 3;
  if (memory.replaces) score += 2;
  if (memory.about.length > 3) score -= 1;
  if (memory.text.length > 200) score -= 1;
  return score;
}

/** The owner may be written "The user" in memories from notes even when their name is known. */
export function subjectLabel(memory: Pick<NamedMemory, 'text'>, name: string): string {
  return /^the user\b/i.test(memory.text) ? OWNER_LABEL : name;
}

function opensWith(text: string, name: string): boolean {
  return new RegExp(`^${escapeRegExp(name)}(?:['’]s)?\\b`, 'i').test(text);
}

/**
 * Whether a memory tells something of the subject rather than only giving their remark about
 * something else: "Leo said the coast is beautiful" names Leo as the one who said it, and is
 * left out of Leo's profile (the coast's, if it were a name, keeps it). The graph still joins
 * what such a sentence names.
 */
function tellsOf(memory: NamedMemory, subjectName: string): boolean {
  if (!memory.reported || !opensWith(memory.text, subjectName)) return true;
  const said = memory.text.indexOf(' said ');
  return (
    said >= 0 &&
    memory.text
      .slice(said + 6)
      .toLowerCase()
      .includes(subjectName.toLowerCase())
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A subject's current memories, with the index they were found in. */
export interface SubjectMemories {
  subject: ResolvedSubject;
  memories: NamedMemory[];
  index: NameIndex;
}

/**
 * The current memories that name a subject (see resolveSubject), newest first, but for the
 * subject's own remarks about something else (see tellsOf).
 */
export async function memoriesOfSubject(db: Db, scope: Scope, subject: string | undefined): Promise<SubjectMemories> {
  const [all, ownerName] = await Promise.all([namedMemories(db, scope), ownerNameOf(db, scope)]);
  const index = indexNames(all, ownerName);
  const resolved = resolveSubject(index, subject);
  const ids = new Set(resolved.key === null ? [] : index.entities.get(resolved.key)!.memoryIds);
  const memories = all.filter((memory) => ids.has(memory.id) && tellsOf(memory, subjectLabel(memory, resolved.name)));
  return { subject: resolved, memories, index };
}

/**
 * Whether a memory holds for now rather than lasting: the learner's judgement (see
 * learn/lasting.ts; worked out from the wording for memories learned before it recorded it),
 * and always for the latest value of a fact that changed (it replaced an earlier one).
 */
export function holdsForNow(memory: NamedMemory): boolean {
  if (memory.replaces) return true;
  return !(memory.lasting ?? isLasting(memory.text, memory.sentence_text, memory.kind));
}

/**
 * What is known about a subject: `lasting` facts (identity, relationships, stable likes,
 * background: the most telling first, see tellingScore, then newest), `current`
 * facts (plans, passing states, where they live and work now, the latest of facts that
 * changed; newest first), both again `grouped` by kind, and how many memories tell of the
 * subject. Replaced and wrong memories never appear: only current ones are read.
 */
export async function profileOf(db: Db, scope: Scope, subject: string | undefined): Promise<ProfileResponse> {
  const { subject: resolved, memories } = await memoriesOfSubject(db, scope, subject);
  const lasting: [NamedMemory, ProfileItem][] = [];
  const current: [NamedMemory, ProfileItem][] = [];
  for (const memory of memories) {
    const item: ProfileItem = { text: memory.text, memory_id: memory.id, kind: memory.kind };
    (holdsForNow(memory) ? current : lasting).push([memory, item]);
  }
  const newestFirst = (left: NamedMemory, right: NamedMemory) => right.date.localeCompare(left.date) || right.id - left.id;
  const telling = new Map(memories.map((memory) => [memory.id, tellingScore(memory, subjectLabel(memory, resolved.name))]));
  lasting.sort(([left], [right]) => telling.get(right.id)! - telling.get(left.id)! || newestFirst(left, right));
  current.sort(([left], [right]) => newestFirst(left, right));
  const grouped: Record<string, ProfileItem[]> = Object.fromEntries(KINDS.map((kind) => [kind, [] as ProfileItem[]]));
  for (const [, item] of [...lasting, ...current]) grouped[item.kind]!.push(item);
  return {
    subject: resolved.name,
    lasting: lasting.map(([, item]) => item),
    current: current.map(([, item]) => item),
    grouped,
    memories: memories.length,
  };
}
