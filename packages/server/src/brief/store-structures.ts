import type { StructuresToStore } from '../store/briefing-repository.js';
import { storeStructures as writeStructures } from '../store/briefing-repository.js';
import type { Db } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import type { LearnedStructures } from './learn-structures.js';
import { keyOf } from './learn-structures.js';

/** What a source taught, with the key of each item's wording (what makes a second learning store nothing twice). */
export function structuresToStore(structures: LearnedStructures): StructuresToStore {
  return {
    // A source whose text names its project ("Project: Falcon") belongs to it, so its memories come with the project's briefing.
    project: structures.project,
    state: structures.state.map((item) => ({ ...item, key: keyOf(item.text) })),
    intentions: structures.intentions.map((intention) => ({ ...intention, key: keyOf(intention.text) })),
    lessons: structures.lessons.map((lesson) => ({ ...lesson, key: keyOf(lesson.text) })),
    episode: structures.episode,
  };
}

/**
 * Stores what a source taught besides facts, within the caller's transaction (see the store's
 * `storeStructures`): learning a source twice stores nothing twice.
 */
export function storeStructures(transaction: Db, scope: Scope, sourceId: string, structures: LearnedStructures): Promise<void> {
  return writeStructures(transaction, scope, sourceId, structuresToStore(structures));
}
