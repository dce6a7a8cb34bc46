import type { SourceKind } from '@engram/protocol';
import { resolveDates, startOfDay } from '../learn/dates.js';
import { applyEdits } from '../learn/edit.js';
import type { LearnedFact, MessageInput } from '../learn/types.js';
import { readMessages } from '../text/messages.js';
import { splitSentences } from '../text/segment.js';
import type { LessonType, Rule, StateField } from './rules.js';
import { appliesWhenOf, clause, intentionRules, lessonRules, screenedOut, stateRules, whyOf } from './rules.js';

/** What the structure learner needs of a source. */
export interface StructureSource {
  kind: SourceKind;
  title?: string | null;
  body: string | null;
  messages: unknown[] | null;
  written_at: Date;
  /** The project the caller named on the save, or a file's `project` label. */
  project?: string | null;
}

/** A statement about a project's state (a goal, an open item, a decision, a step, a thing done). */
export interface LearnedStateItem {
  project: string | null;
  field: StateField;
  text: string;
  /** When it was said (a message's time, else the source's). */
  saidAt: string;
  position: number;
  /** The line or sentence it was learned from. */
  said: string;
}

/** A promise or plan with its due day and triggers. */
export interface LearnedIntention {
  project: string | null;
  text: string;
  due: string | null;
  triggers: ({ type: 'date'; at: string } | { type: 'cue'; text: string })[];
  /** The line or sentence it was learned from. */
  said: string;
}

/** A rule, how-to or lesson. */
export interface LearnedLesson {
  project: string | null;
  type: LessonType;
  text: string;
  appliesWhen: string | null;
  why: string | null;
  date: string;
  /** The line or sentence it was learned from. */
  said: string;
}

/** One conversation session or dated note. */
export interface LearnedEpisode {
  project: string | null;
  title: string;
  summary: string;
  date: string;
}

/** Everything besides facts that one source teaches, learned in the same pass. */
export interface LearnedStructures {
  /** The project the source belongs to: the one it was saved under, else the first its text names. */
  project: string | null;
  state: LearnedStateItem[];
  intentions: LearnedIntention[];
  lessons: LearnedLesson[];
  episode: LearnedEpisode | null;
}

/** What a heading or a "Label:" line opens. */
type Section = StateField | LessonType | 'intention' | 'other';

const SECTIONS: [RegExp, Section][] = [
  [/^(?:goals?|objectives?|aims?|the goal|project goal|mission)$/i, 'goal'],
  [/^(?:focus|current focus|focus this week|this week'?s focus|this sprint)$/i, 'focus'],
  [/^(?:decisions?|decided|agreed|what we decided|decisions made|key decisions)$/i, 'decision'],
  [
    /^(?:todo|to-?dos?|to do|open items?|open questions?|open issues?|open points?|blockers?|blocked|outstanding|risks and blockers)$/i,
    'open',
  ],
  [/^(?:next steps?|next|next up|action items?|actions|what'?s next|plan for next week)$/i, 'next'],
  [/^(?:done|completed|finished|shipped|done this week)$/i, 'done'],
  [/^(?:lessons?(?: learned)?|learnings|takeaways|retro|retrospective|what we learned|what I learned)$/i, 'lesson'],
  [/^(?:rules?|ground rules|conventions|guidelines|house rules)$/i, 'rule'],
  [/^(?:how-?tos?|how to|runbook|recipes?|playbook)$/i, 'how-to'],
  [/^(?:reminders?|promises|follow-?ups?|commitments|my to-?dos|intentions)$/i, 'intention'],
];

/** Labels that open a one-line item ("Goal: ship the beta"). */
const INLINE: [RegExp, Section][] = [
  [/^(?:goal|objective|aim)$/i, 'goal'],
  [/^(?:focus|current focus)$/i, 'focus'],
  [/^(?:blocker|blocked|open question|open item|open issue)$/i, 'open'],
  [/^(?:action item|follow-?up|reminder)$/i, 'intention'],
];

const HEADING_MARK = /^\s*(?:#{1,6}\s+|\*\*)(.+?)(?:\*\*)?\s*:?\s*$/u;
const LABEL_LINE = /^\s*([A-Za-z][A-Za-z' -]{1,30}?)\s*:\s*$/u;
const INLINE_LABEL = /^\s*(?:[-*•]\s+)?([A-Za-z][A-Za-z' -]{1,20}?)\s*:\s+(\S.*)$/u;
const BULLET = /^\s*(?:[-*•·‣◦]|\d{1,3}[.)])\s+/u;
const CHECKBOX = /^\s*(?:[-*•]\s+)?\[([ xX✓✔])\]\s+(.+)$/u;
const PROJECT_LINE = /^\s*(?:#{1,6}\s+)?project\s*(:|–|—|-)?\s*(.+?)\s*$/iu;

/** The project a heading names ("Project: Falcon", "# Project Falcon — notes"), or null. */
export function projectOfHeading(line: string): string | null {
  const found = PROJECT_LINE.exec(line);
  if (found === null) {
    // A heading that names its project after its subject: "Weekly sync (Project Falcon)", "Budget call — Project Falcon".
    const named = /(?:\(|\s[–—-]\s)project\s*:?\s*(\p{Lu}[^)–—]{0,80}?)\s*(?:\)|$)/iu.exec(line);
    if (named === null || line.length > 120 || /[.!?]$/u.test(line.trim())) return null;
    return named[1]!.trim();
  }
  const heading = /^\s*#/.test(line);
  const separated = found[1] !== undefined;
  let name = found[2]!.replace(/\*+/g, '').trim();
  if (!heading && !separated && (name.split(/\s+/).length > 4 || /[.!?]$/.test(name))) return null;
  name = name
    .split(/\s+[–—-]\s+|:\s|\s\(|[.!?;,]\s/u)[0]!
    .trim()
    .replace(/[.:,;]+$/u, '');
  if (!name || name.length > 200 || /^(?:notes?|plan|status|update)$/i.test(name)) return null;
  return name;
}

function sectionOf(label: string, table: [RegExp, Section][]): Section | null {
  const cleaned = label
    .replace(/[*_`]/g, '')
    .replace(/\s*\(.*\)\s*$/u, '')
    .trim();
  for (const [pattern, section] of table) if (pattern.test(cleaned)) return section;
  return null;
}

/** How a passage (a note, or one message) is read. */
interface Passage {
  text: string;
  reference: Date;
}

class Collector {
  readonly state: LearnedStateItem[] = [];
  readonly intentions: LearnedIntention[] = [];
  readonly lessons: LearnedLesson[] = [];
  /** Sentences that taught a structure, which make an episode's summary telling. */
  readonly telling = new Set<string>();
  project: string | null;
  #position = 0;

  constructor(
    readonly fixedProject: string | null,
    readonly date: string,
  ) {
    this.project = fixedProject;
  }

  addState(field: StateField, text: string, reference: Date, sentence: string): void {
    // "by 15 January" becomes "by 15 January 2027": relative dates are made absolute, as in facts.
    const cleaned = clause(withDates(text, reference, field === 'done' || field === 'decision' ? 'present' : 'future').text);
    if (cleaned.length < 3) return;
    this.telling.add(sentence);
    this.state.push({
      project: this.project,
      field,
      text: capitalise(cleaned),
      saidAt: reference.toISOString(),
      position: this.#position++,
      said: sentence,
    });
  }

  addIntention(text: string, reference: Date, sentence: string): void {
    const dates = withDates(text, reference, 'future');
    const written = clause(dates.text);
    if (written.length < 4) return;
    const referenceDay = startOfDay(reference);
    const day = dates.days.find((candidate) => candidate >= referenceDay) ?? null;
    const due = day === null ? null : day.toISOString().slice(0, 10);
    const triggers: LearnedIntention['triggers'] = [];
    if (due !== null) triggers.push({ type: 'date', at: due });
    const cue = cueOf(text);
    if (cue !== null) triggers.push({ type: 'cue', text: cue });
    this.telling.add(sentence);
    this.intentions.push({ project: this.project, text: capitalise(written), due, triggers, said: sentence });
  }

  addLesson(type: LessonType, text: string, sentence: string, appliesWhen?: string | null): void {
    const { text: rule, why } = whyOf(clause(text));
    if (rule.length < 4) return;
    this.telling.add(sentence);
    this.lessons.push({
      project: this.project,
      type,
      text: capitalise(rule),
      appliesWhen: appliesWhen ?? appliesWhenOf(rule),
      why,
      date: this.date,
      said: sentence,
    });
  }
}

/** Words that make a date phrase a real date; "the night" or "the evening" alone is not one. */
const DATE_WORD =
  /\d|\b(?:today|tonight|tomorrow|yesterday|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

/** The text with its relative dates made absolute, and the days it names. */
function withDates(text: string, reference: Date, tense: 'past' | 'present' | 'future'): { text: string; days: Date[] } {
  const resolved = resolveDates(text, reference, tense);
  const rejected = resolved.edits.filter((edit) => !DATE_WORD.test(text.slice(edit.start, edit.end)));
  if (rejected.length === 0) return { text: applyEdits(text, resolved.edits), days: resolved.days };
  // Read again with the false dates blanked (same length, so offsets hold), for the days that are real.
  let blanked = text;
  for (const edit of rejected) blanked = blanked.slice(0, edit.start) + ' '.repeat(edit.end - edit.start) + blanked.slice(edit.end);
  const kept = resolveDates(blanked, reference, tense);
  return { text: applyEdits(text, kept.edits), days: kept.days };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A cue that starts an intention: "when we talk about the budget", "next time I see Ana", "when X comes up". */
export function cueOf(text: string): string | null {
  const found =
    /\b(?:when|whenever|next time|the next time|once) (?:we|I|you|they) (?:next )?(?:talk|speak|chat|meet|discuss|see|get to)(?: (?:about|with|on|to))?\s+([^,.;!?]+)/i.exec(
      text,
    ) ??
    /\b(?:when|whenever|if|once) ([^,.;!?]+?) comes? up\b/i.exec(text) ??
    /^\s*(?:at|in|during) (?:the |our )?(next [^,.;!?]+?(?:meeting|call|review|standup|sync|retro|1:1))\b/i.exec(text);
  return found ? clause(found[1]!) : null;
}

/** The structures a sentence (outside any known section) teaches, by the named rules. */
export function sentenceStructures(sentence: string): {
  state?: { rule: Rule; field: StateField; text: string };
  intention?: { rule: Rule; text: string };
  lesson?: { rule: Rule; type: LessonType; text: string; appliesWhen: string | null };
} {
  const found: ReturnType<typeof sentenceStructures> = {};
  const screened = screenedOut(sentence);
  // An item named as an open question is kept although it asks.
  if (screened !== null && !(screened === 'question' && /^open (?:questions?|items?|issues?)\s*[:–—-]/iu.test(sentence))) return found;
  for (const rule of lessonRules) {
    const match = rule.match(sentence);
    if (match === null) continue;
    const howTo = match.lessonType === 'how-to' ? /^to ([^,]+),/i.exec(sentence) : null;
    const text = match.lessonType === 'how-to' || match.lessonType === 'rule' ? sentence : match.text;
    found.lesson = { rule, type: match.lessonType!, text, appliesWhen: howTo ? `To ${clause(howTo[1]!)}` : null };
    break;
  }
  for (const rule of stateRules) {
    const match = rule.match(sentence);
    if (match === null) continue;
    found.state = { rule, field: match.field!, text: match.text };
    break;
  }
  // A rule or a decision that happens to say "we will" is not also a promise.
  if (found.lesson === undefined && (found.state === undefined || found.state.field === 'open' || found.state.field === 'next')) {
    for (const rule of intentionRules) {
      if (rule.match(sentence) === null) continue;
      found.intention = { rule, text: sentence };
      break;
    }
  }
  return found;
}

/** Reads a passage line by line: project headings, section headings, checklists, bullets and sentences. */
function readPassage(passage: Passage, collector: Collector): void {
  let section: Section | null = null;
  let blankBefore = false;
  for (const rawLine of passage.text.split(/\r?\n/u)) {
    const line = rawLine.trim();
    if (line === '') {
      blankBefore = true;
      continue;
    }
    const project = projectOfHeading(line);
    if (project !== null) {
      if (collector.fixedProject === null) collector.project = project;
      section = null;
      blankBefore = false;
      // "Project: Move. Our goal is…": what follows the name is read as any other text.
      const rest = /^[^.!?]*[.!?]\s+(\S.*)$/u.exec(line)?.[1];
      if (rest !== undefined) for (const segment of splitSentences(rest)) readSentence(segment.text, passage, collector);
      continue;
    }
    // A heading: marked ("## Decisions", "**Decisions**"), a label alone ("Decisions:"), or a known section's name alone ("Next steps").
    const heading =
      HEADING_MARK.exec(line)?.[1] ?? LABEL_LINE.exec(line)?.[1] ?? (line.length <= 40 && sectionOf(line, SECTIONS) !== null ? line : null);
    if (heading !== null && heading.length <= 60 && !/[.!?]$/.test(heading)) {
      section = sectionOf(heading, SECTIONS) ?? 'other';
      blankBefore = false;
      continue;
    }
    const isBullet = BULLET.test(line) || CHECKBOX.test(line);
    // A plain paragraph after a blank line leaves the list it followed.
    if (blankBefore && !isBullet && section !== null && section !== 'goal' && section !== 'focus') section = null;
    blankBefore = false;
    const checkbox = CHECKBOX.exec(line);
    if (checkbox !== null) {
      const done = checkbox[1] !== ' ';
      const text = checkbox[2]!;
      if (done) collector.addState('done', text, passage.reference, line);
      else if (section === 'intention') collector.addIntention(text, passage.reference, line);
      else collector.addState(section === 'next' ? 'next' : 'open', text, passage.reference, line);
      continue;
    }
    const inline = INLINE_LABEL.exec(line);
    const inlineSection = inline ? sectionOf(inline[1]!, INLINE) : null;
    if (inline && inlineSection !== null) {
      placeItem(inlineSection, inline[2]!, passage, collector, line);
      continue;
    }
    const item = line.replace(BULLET, '');
    if (section !== null && section !== 'other') {
      placeItem(section, item, passage, collector, line);
      continue;
    }
    for (const segment of splitSentences(item)) readSentence(segment.text, passage, collector);
  }
}

/** An item under a known heading: it is what the heading says, unless it only asks or supposes. */
function placeItem(section: Section, item: string, passage: Passage, collector: Collector, line: string): void {
  const screened = screenedOut(item);
  if (section === 'intention') {
    if (screened === null || screened === 'quoted') collector.addIntention(item, passage.reference, line);
    return;
  }
  if (section === 'lesson' || section === 'rule' || section === 'how-to') {
    if (screened !== null && screened !== 'quoted') return;
    const typed = sentenceStructures(item).lesson;
    collector.addLesson(typed?.type ?? section, typed?.type === 'lesson' ? typed.text : item, line, typed?.appliesWhen);
    return;
  }
  if (section === 'other') return;
  // Open questions are questions by nature; a decision or a goal that only asks is not one.
  if (screened !== null && !(section === 'open' && screened === 'question')) return;
  if (section === 'open' || section === 'next') {
    const rule = sentenceStructures(item);
    if (rule.state?.field === 'done') {
      collector.addState('done', rule.state.text, passage.reference, line);
      return;
    }
  }
  collector.addState(section, item, passage.reference, line);
}

function readSentence(sentence: string, passage: Passage, collector: Collector): void {
  const found = sentenceStructures(sentence);
  if (found.state) collector.addState(found.state.field, found.state.text, passage.reference, sentence);
  if (found.intention) collector.addIntention(found.intention.text, passage.reference, sentence);
  if (found.lesson) collector.addLesson(found.lesson.type, found.lesson.text, sentence, found.lesson.appliesWhen);
}

/** What the user (or the app for them) wrote: notes, files and conversations. */
const OWN_KINDS = new Set<SourceKind>(['note', 'file', 'conversation']);

/** Sources that make an episode: every conversation and note, and a file or document only when it is dated. */
const DATED =
  /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2},? \d{4})\b/i;

/**
 * The state, intentions, lessons and episode a source teaches, read from the same text as its
 * facts (no second read of the source), with the facts themselves used for the episode's summary.
 */
export function learnStructures(source: StructureSource, facts: readonly LearnedFact[]): LearnedStructures {
  // A web page or an uploaded document is someone else's writing: its "we decided" and "I will" are not the user's.
  if (!OWN_KINDS.has(source.kind))
    return { project: source.project?.trim() || null, state: [], intentions: [], lessons: [], episode: null };
  const fixed = source.project?.trim() ? source.project.trim() : null;
  const writtenDay = source.written_at.toISOString().slice(0, 10);
  const collector = new Collector(fixed, writtenDay);
  let firstLine: string | null = null;
  let date = writtenDay;
  if (source.messages) {
    const messages = readMessages(source.messages as MessageInput[]);
    const first = messages.find((message) => message.at !== null);
    if (first?.at) date = first.at.toISOString().slice(0, 10);
    collector.project = fixed;
    for (const message of messages) {
      // The model's own talk (an assistant without a name) promises nothing for the user.
      if (message.role === 'assistant' && message.name === null) continue;
      firstLine ??= message.text.trim().split('\n')[0] ?? null;
      readPassage({ text: message.text, reference: message.at ?? source.written_at }, collector);
    }
  } else {
    const text = source.body ?? '';
    firstLine = text.trim().split('\n')[0] ?? null;
    // Notes of a dated meeting ("Weekly sync 2026-11-19") speak from that day: "by Friday" is that week's Friday.
    const dated = datedHeading(source.title ?? null, firstLine);
    const reference = dated !== null && dated < writtenDay ? new Date(`${dated}T12:00:00Z`) : source.written_at;
    readPassage({ text, reference }, collector);
  }
  const headingDate = datedHeading(source.title ?? null, firstLine);
  if (headingDate !== null) date = headingDate;
  const makesEpisode = source.kind === 'conversation' || source.kind === 'note' || headingDate !== null;
  const projectOfSource =
    fixed ?? collector.state[0]?.project ?? collector.intentions[0]?.project ?? collector.lessons[0]?.project ?? collector.project;
  const episode = makesEpisode ? episodeOf(source, firstLine, facts, collector.telling, date, projectOfSource) : null;
  return {
    project: projectOfSource,
    state: collector.state,
    intentions: dedupe(collector.intentions),
    lessons: dedupe(collector.lessons),
    episode,
  };
}

function dedupe<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = keyOf(item.text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A key that tells two wordings of one item apart from other items: lower-case words, no stop words. */
export function keyOf(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => !STOP.has(word))
    .join(' ')
    .slice(0, 300);
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'to',
  'of',
  'and',
  'for',
  'on',
  'in',
  'we',
  'i',
  'our',
  'my',
  'is',
  'are',
  'be',
  'it',
  'this',
  'that',
  'with',
  'at',
  'by',
]);

/** The day a title or first line carries ("Standup 2026-11-20", "Notes, 3 March 2026"), or null. */
function datedHeading(title: string | null, firstLine: string | null): string | null {
  for (const text of [title, firstLine]) {
    if (!text || text.length > 120) continue;
    const found = DATED.exec(text);
    if (found === null) continue;
    const day = new Date(`${found[0]} UTC`);
    const parsed = /^\d{4}-\d{2}-\d{2}$/.test(found[0]) ? new Date(`${found[0]}T00:00:00Z`) : day;
    if (!Number.isNaN(parsed.getTime())) return parsed.toISOString().slice(0, 10);
  }
  return null;
}

/** Most facts an episode's summary holds, and its longest length. */
const SUMMARY_FACTS = 3;
const SUMMARY_CHARS = 320;
const TITLE_CHARS = 80;

/** An episode: its title, and a summary made of its most telling facts in the order they were said. */
function episodeOf(
  source: StructureSource,
  firstLine: string | null,
  facts: readonly LearnedFact[],
  telling: Set<string>,
  date: string,
  project: string | null,
): LearnedEpisode | null {
  const usable = facts.filter((fact) => fact.text.length >= 20);
  if (usable.length === 0 && !source.title) return null;
  const scored = usable.map((fact, index) => ({ fact, index, score: tellingScore(fact, telling) }));
  const chosen = [...scored].sort((a, b) => b.score - a.score || a.index - b.index).slice(0, SUMMARY_FACTS);
  chosen.sort((a, b) => a.index - b.index);
  let summary = '';
  for (const { fact } of chosen) {
    const text = fact.text.replace(/^\[[ xX✓✔]\]\s*/u, '');
    const next = summary === '' ? text : `${summary} ${text}`;
    if (next.length > SUMMARY_CHARS) break;
    summary = next;
  }
  if (summary === '' && chosen[0]) summary = shorten(chosen[0].fact.text, SUMMARY_CHARS);
  const heading =
    firstLine
      ?.replace(/^#+\s*/u, '')
      .replace(/[*_]/g, '')
      .trim() ?? '';
  const headingTitle = heading !== '' && heading.length <= TITLE_CHARS && !/[.!?]$/.test(heading) ? heading : null;
  const title = source.title?.trim() || headingTitle || shorten((chosen[0]?.fact.text ?? 'Note').replace(/[.!?]$/u, ''), TITLE_CHARS);
  return { project, title: shorten(title, 300), summary, date };
}

function tellingScore(fact: LearnedFact, telling: Set<string>): number {
  let score = fact.about.length;
  if (fact.kind === 'plan') score += 1.5;
  if ([...telling].some((sentence) => sentence.includes(fact.sentence.text) || fact.sentence.text.includes(sentence))) score += 2;
  if (/\d/.test(fact.text)) score += 1;
  return score + Math.min(fact.text.length / 100, 1);
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/u, '')}…`;
}
