import { contrastAt, subjectOf, supersededWords } from '../learn/contrast.js';
import { RELATION_ADJECTIVE_ALTERNATION, RELATION_ALTERNATION } from '../learn/coreference.js';
import type { LearnedFact } from '../learn/types.js';
import type { Db } from '../store/database.js';
import type { ContrastCandidate } from '../store/memory-repository.js';
import { contrastCandidates } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';

/** "The user is …", "Omar was …": a fact that says what its subject is. */
const SAYS_WHAT = /^(?:is|are|was|were|has been|have been)\b/;

/**
 * Whether a memory is the one a contrasting fact updates: beside the old value's words it
 * shares something else with the fact (the relation: "going to", "works at", "drinks"), or
 * both say what their subject is ("The user is vegetarian." against "The user is
 * flexitarian now, not vegetarian."). A memory that itself contrasts is left alone: it already tells a change.
 */
export function updatedBy(candidate: ContrastCandidate, subject: string, factText: string): boolean {
  if (supersededWords(candidate.text) !== null) return false;
  const aside = new Set([...candidate.value, ...candidate.subject]);
  const shared = new Set(candidate.fact.filter((lexeme) => !aside.has(lexeme)));
  if (candidate.lexemes.some((lexeme) => !aside.has(lexeme) && shared.has(lexeme))) return true;
  // What the subject is said to be: in the memory, after its first mention; in the fact, after
  // the mention nearest before the contrast ("… decided to eat fish, so the user is flexitarian now, not vegetarian").
  const lower = subject.toLowerCase();
  const memory = candidate.text.toLowerCase();
  const fact = factText.toLowerCase();
  const before = fact.slice(0, Math.max(contrastAt(factText), 0)).lastIndexOf(lower);
  const said = (text: string, at: number) => at >= 0 && SAYS_WHAT.test(text.slice(at + lower.length).trim());
  return said(memory, memory.indexOf(lower)) && said(fact, before);
}

/**
 * Marks the facts that say what no longer holds ("… now, not vegetarian", "… instead of Riga",
 * "… no longer works at Halden") as updating the newest current memory of the same subject
 * that said it (`replaces`), so that storing them replaces it as a slot would: the old memory
 * stays in history with status `replaced`. Facts that already name what they update (the
 * optional model's) are left as they are.
 */
export async function markContrastUpdates(db: Db, scope: Scope, sourceId: string, facts: LearnedFact[]): Promise<LearnedFact[]> {
  const marked: LearnedFact[] = [];
  for (const fact of facts) {
    const words = fact.replaces === undefined ? supersededWords(fact.text) : null;
    const subject = words === null ? null : subjectOf(fact.text, fact.about);
    if (words === null || subject === null) {
      marked.push(fact);
      continue;
    }
    const candidates = await contrastCandidates(db, scope, { subject, words, fact: fact.text, sourceId });
    const updated = candidates.find((candidate) => updatedBy(candidate, subject, fact.text));
    marked.push(updated ? { ...fact, text: withRelationsOf(updated.text, fact.text), replaces: updated.id } : fact);
  }
  return marked;
}

/** "the user's partner Sam", "Omar's little sister Ilse": who a named person is to someone, as the learner writes it. */
const NAMED_RELATION = new RegExp(
  String.raw`\b((?:[Tt]he user|\p{Lu}[\p{L}'’-]*)['’]s (?:(?:${RELATION_ADJECTIVE_ALTERNATION}) )?(?:${RELATION_ALTERNATION})),? (\p{Lu}[\p{L}'’-]+)(?![\p{L}'’-])`,
  'gu',
);
/** A relation word just before a name ("… partner Sam", "… sister, Ines"): the fact says who the person is already. */
const RELATION_BEFORE = new RegExp(`(?:${RELATION_ALTERNATION}),? $`, 'iu');

/**
 * The replacing fact with who its people are, as the memory it replaces said it: a change of
 * plan replaces the plan, not what the plan told of the people in it ("The user's partner Sam and
 * the user are going to Valencia." replaced by "… going to Seville instead of Valencia, Sam found
 * flights." keeps "the user's partner Sam"). Each named person the fact names bare, whose relation
 * the replaced memory gave, is named with it at the first mention.
 */
export function withRelationsOf(replaced: string, fact: string): string {
  let text = fact;
  for (const match of replaced.matchAll(NAMED_RELATION)) {
    const [, relation, name] = match as unknown as [string, string, string];
    const bare = new RegExp(String.raw`(?<![\p{L}'’-])${name}(?![\p{L}'’-])`, 'u').exec(text);
    if (bare === null || RELATION_BEFORE.test(text.slice(0, bare.index))) continue;
    // "the user's …" is capitalised only where it opens the fact; a name's owner keeps its capital.
    const owner = /^the user/iu.test(relation)
      ? (bare.index === 0 ? 'The user' : 'the user') + relation.slice('the user'.length)
      : relation;
    text = `${text.slice(0, bare.index)}${owner} ${name}${text.slice(bare.index + name.length)}`;
  }
  return text;
}
