import type { StateOut } from '@engram/protocol';
import type { StateItemRow } from '../store/briefing-repository.js';
import { stateItems } from '../store/briefing-repository.js';
import type { Db } from '../store/database.js';
import type { Scope } from '../store/scope.js';
import { sameItem } from './similar.js';

/** Most decisions a state lists. */
const MAX_DECISIONS = 20;
const MAX_ITEMS = 30;

/**
 * Where each project stands (or one project), assembled from its statements: the newest goal
 * and focus win; open items stay open until a thing said done at the same time or later names
 * them; next steps are those of the newest source that named any (a newer list replaces an
 * older one); decisions are listed newest first. Projects with nothing to show are left out.
 */
export async function projectStates(db: Db, scope: Scope, project?: string | null): Promise<StateOut[]> {
  const rows = await stateItems(db, scope, project);
  const byProject = new Map<string, StateItemRow[]>();
  for (const row of rows) {
    const key = row.project.trim().toLowerCase();
    const list = byProject.get(key) ?? [];
    list.push(row);
    byProject.set(key, list);
  }
  const states: StateOut[] = [];
  for (const items of byProject.values()) {
    const state = assemble(items);
    if (state.goal || state.focus || state.open_items.length || state.decisions.length || state.next_steps.length) states.push(state);
  }
  // The project touched last comes first.
  return states.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}

function assemble(items: StateItemRow[]): StateOut {
  const done = items.filter((item) => item.field === 'done');
  const closed = (item: StateItemRow) => done.some((finished) => finished.said_at >= item.said_at && sameItem(finished.text, item.text));
  const latest = (field: StateItemRow['field']) => items.filter((item) => item.field === field).at(-1)?.text ?? null;
  const unique = (list: StateItemRow[]) => {
    const kept: StateItemRow[] = [];
    for (const item of list) {
      const index = kept.findIndex((other) => sameItem(other.text, item.text));
      // A later wording of the same item replaces the earlier one.
      if (index !== -1) kept.splice(index, 1);
      kept.push(item);
    }
    return kept;
  };
  const open = unique(items.filter((item) => item.field === 'open' && !closed(item)));
  const nextItems = items.filter((item) => item.field === 'next');
  const newestNext = nextItems.at(-1);
  const next = newestNext ? unique(nextItems.filter((item) => item.source_id === newestNext.source_id && !closed(item))) : [];
  const decisions = unique(items.filter((item) => item.field === 'decision')).reverse();
  const name = items.at(-1)!.project;
  return {
    project: name === '' ? null : name,
    goal: latest('goal'),
    focus: latest('focus'),
    open_items: open.slice(-MAX_ITEMS).map((item) => item.text),
    decisions: decisions.slice(0, MAX_DECISIONS).map((item) => item.text),
    next_steps: next.slice(0, MAX_ITEMS).map((item) => item.text),
    updated_at: new Date(Math.max(...items.map((item) => item.said_at.getTime()))).toISOString(),
  };
}
