import type { BriefingResponse, EpisodeOut, IntentionOut, LessonOut, StateOut } from '@engram/protocol';
import { recall } from '../recall/search.js';
import { listEpisodes, listIntentions, listLessons, memoryIdsOfProject, newestMemoryIds } from '../store/briefing-repository.js';
import type { Db } from '../store/database.js';
import type { MemoryRow } from '../store/memory-repository.js';
import { loadMemories, toMemoryRecord } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import type { BriefingPart } from './briefing-text.js';
import { fitBriefing, line } from './briefing-text.js';
import { cueScore, overlap, stems } from './similar.js';
import { projectStates } from './state.js';

/** What a briefing is asked for. */
export interface BriefingRequestInput {
  /** One project; undefined means every project. */
  project?: string;
  cue: string;
  budgetChars: number;
  now: Date;
}

/** Open intentions due within this many days (or overdue) are "what is due". */
export const DUE_WITHIN_DAYS = 7;
/** How many candidates of each part a briefing chooses from. */
const CANDIDATES = 200;
const MEMORY_CANDIDATES = 120;
const DAY_MS = 86_400_000;

/**
 * A briefing, assembled by reading (no model writes it): where things stand, what is due,
 * the rules that apply, what happened, then memories with their dates. What bears on `cue`
 * comes first in every part; the text never passes `budgetChars` (see briefing-text.ts).
 */
export async function assembleBriefing(db: Db, scope: Scope, input: BriefingRequestInput): Promise<BriefingResponse> {
  const project = input.project?.trim() ? input.project.trim() : undefined;
  const cue = stems(input.cue);
  const today = input.now.toISOString().slice(0, 10);
  const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + DUE_WITHIN_DAYS * DAY_MS).toISOString().slice(0, 10);

  const [states, intentions, lessons, episodes, memories] = await Promise.all([
    projectStates(db, scope, project),
    listIntentions(db, scope, 'open', CANDIDATES, project),
    listLessons(db, scope, project, CANDIDATES, true),
    listEpisodes(db, scope, project, CANDIDATES),
    briefingMemories(db, scope, project, input.cue, input.now),
  ]);

  const cueFirst = <T>(items: T[], textOf: (item: T) => string) =>
    items
      .map((item, index) => ({ item, index, score: cueScore(textOf(item), cue) }))
      .sort((a, b) => Number(b.score > 0) - Number(a.score > 0) || b.score - a.score || a.index - b.index)
      .map((entry) => entry.item);

  // What is due: overdue or due within the week, and those whose cue the caller's cue matches.
  const cueMatches = (intention: IntentionOut) =>
    cue.size > 0 && intention.triggers.some((trigger) => trigger.type === 'cue' && overlap(stems(trigger.text), cue) >= 0.5);
  const due = cueFirst(
    intentions.filter((intention) => (intention.due !== null && intention.due <= horizon) || cueMatches(intention)),
    (intention) => `${intention.text} ${intention.triggers.map((trigger) => (trigger.type === 'cue' ? trigger.text : '')).join(' ')}`,
  );

  const stateLines = cueFirst(stateEntries(states, project === undefined), (entry) => entry.text);
  const parts: BriefingPart[] = [
    { heading: 'Where things stand', perTurn: 2, lines: stateLines.map((entry) => ({ text: line(`- ${entry.text}`), item: entry.state })) },
    {
      heading: 'What is due',
      perTurn: 2,
      lines: due.map((intention) => ({ text: line(`- ${dueLabel(intention, today)}${intention.text}`), item: intention })),
    },
    {
      heading: 'Rules that apply',
      perTurn: 1,
      lines: cueFirst(lessons, (lesson) => `${lesson.text} ${lesson.applies_when ?? ''}`).map((lesson) => ({
        text: line(`- ${lessonLine(lesson)}`),
        item: lesson,
      })),
    },
    {
      heading: 'What happened',
      perTurn: 1,
      lines: cueFirst(episodes, (episode) => `${episode.title} ${episode.summary}`).map((episode) => ({
        text: line(`- ${episode.date} ${episode.title}${episode.summary ? `: ${episode.summary}` : ''}`),
        item: episode,
      })),
    },
    {
      heading: 'Memories',
      perTurn: 2,
      lines: memories.map((memory) => ({ text: line(`- ${memory.text} (${memory.date})`), item: memory })),
    },
  ];
  const title = `Briefing${project ? ` for ${project}` : ''}, ${today}${input.cue.trim() ? `, about: ${line(input.cue).slice(0, 120)}` : ''}`;
  const fitted = fitBriefing(title, parts, input.budgetChars);
  const shownOf = <T>(index: number) => parts[index]!.lines.slice(0, fitted.shown[index]).map((entry) => entry.item as T);
  const shownStates = new Set(shownOf<StateOut>(0));
  return {
    project: project ?? null,
    briefing: fitted.text,
    now: states.filter((state) => shownStates.has(state)),
    due: shownOf<IntentionOut>(1),
    lessons: shownOf<LessonOut>(2),
    episodes: shownOf<EpisodeOut>(3),
    memories: shownOf<MemoryRow>(4).map((row) => toMemoryRecord(row)),
  };
}

/** Each part of each project's state as a line: goal and focus, then open items, next steps and decisions. */
function stateEntries(states: StateOut[], named: boolean): { text: string; state: StateOut }[] {
  const entries: { text: string; state: StateOut }[] = [];
  for (const state of states) {
    const lead = named && state.project ? `${state.project}: ` : '';
    if (state.goal) entries.push({ text: `${lead}Goal: ${state.goal}`, state });
    if (state.focus) entries.push({ text: `${lead}Focus: ${state.focus}`, state });
    for (const item of state.open_items) entries.push({ text: `${lead}Open: ${item}`, state });
    for (const step of state.next_steps) entries.push({ text: `${lead}Next: ${step}`, state });
    for (const decision of state.decisions) entries.push({ text: `${lead}Decided: ${decision}`, state });
  }
  return entries;
}

function dueLabel(intention: IntentionOut, today: string): string {
  if (intention.due !== null && intention.due < today) return `[overdue since ${intention.due}] `;
  if (intention.due !== null) return `[due ${intention.due}] `;
  const cue = intention.triggers.find((trigger) => trigger.type === 'cue');
  return cue && cue.type === 'cue' ? `[when: ${cue.text}] ` : '';
}

function lessonLine(lesson: LessonOut): string {
  const label = lesson.type === 'rule' ? 'Rule' : lesson.type === 'how-to' ? 'How-to' : 'Lesson';
  const when = lesson.applies_when ? ` (applies: ${lesson.applies_when})` : '';
  const why = lesson.why ? ` Why: ${lesson.why}.` : '';
  const text = /[.!?]$/.test(lesson.text) ? lesson.text : `${lesson.text}.`;
  return `${label}: ${text}${when}${why}`;
}

/**
 * The memories a briefing shows: with a cue, those the recall ranking finds for it first (the
 * same ranking as search, context and ask), then the newest; of the project's sources when a
 * project is named.
 */
async function briefingMemories(db: Db, scope: Scope, project: string | undefined, cue: string, now: Date): Promise<MemoryRow[]> {
  const recent = await newestMemoryIds(db, scope, project, MEMORY_CANDIDATES);
  let first: number[] = [];
  if (cue.trim()) {
    const found = await recall(db, scope, cue.slice(0, 2_000), { limit: 30, kind: 'all', now });
    let ids = found.memories.map((item) => item.row.id);
    if (project !== undefined && ids.length) {
      const keep = await memoryIdsOfProject(db, scope, ids, project);
      ids = ids.filter((id) => keep.has(id));
    }
    first = ids;
  }
  const ordered = [...new Set([...first, ...recent])];
  return loadMemories(db, scope, ordered);
}
