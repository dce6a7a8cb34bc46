import { randomUUID } from 'node:crypto';
import type { HealthItem, MemoryHealthResponse } from '@engram/protocol';
import { periodOf } from '../meter/usage.js';
import { answerWithModel } from '../model/answer-with-model.js';
import { markWithModel, writeQuestionsWithModel } from '../model/health-with-model.js';
import type { Model, ModelUsage } from '../model/model-client.js';
import { ModelError } from '../model/model-error.js';
import { answerOffline } from '../recall/ask.js';
import { recall } from '../recall/search.js';
import type { Db } from '../store/database.js';
import {
  claimNightlyRun,
  finishRun,
  latestHealth,
  memoryIdsLearned,
  newestMemoryIdsLearned,
  spacesToTest,
  startRequestedRun,
} from '../store/health-repository.js';
import type { MemoryRow } from '../store/memory-repository.js';
import { loadMemories } from '../store/memory-repository.js';
import type { Scope } from '../store/scope.js';
import { addModelTokens } from '../store/usage-repository.js';
import { DAY_OR_MONTH_WORDING } from '../text/date-wording.js';

/** Most questions one test asks. */
export const MAX_QUESTIONS = 20;
/** An answer holding at least this share of the expected words is right; at least PARTLY, partly right. */
const RIGHT_SHARE = 0.8;
const PARTLY_SHARE = 0.34;

/** A question written from a memory, with the answer the memory gives. */
export interface HealthQuestion {
  question: string;
  expected: string;
  memoryId: number;
}

/** A day or month as the learner writes it (group 1), after an optional preposition. */
const DATE = DAY_OR_MONTH_WORDING;
const PLACE = /\s*\b(?:in|at|to|from|near)\s+((?:the\s+)?\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)*)/u;
const STOP = new Set(['the', 'a', 'an', 'of', 'in', 'on', 'at', 'to', 'and', 'by']);

const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP.has(word));
const ending = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?,;:]+$/u, '')
    .trim();

/**
 * A question a memory answers, written from its own words: "who" when it opens with a name it
 * is about, else "when" for an absolute date, else "where" for a named place. Null when the
 * memory holds none of these (it would make a question whose answer cannot be checked).
 */
export function questionOf(memory: Pick<MemoryRow, 'id' | 'text' | 'about'>): HealthQuestion | null {
  const text = ending(memory.text);
  const opening = memory.about.find((name) => text.startsWith(`${name} `));
  if (opening !== undefined && words(text).length >= 4) {
    return { question: `Who ${text.slice(opening.length + 1)}?`, expected: opening, memoryId: memory.id };
  }
  const date = DATE.exec(text);
  if (date !== null) {
    const rest = ending(text.slice(0, date.index) + text.slice(date.index + date[0].length));
    if (words(rest).length >= 2) return { question: `When: ${rest}?`, expected: date[1]!, memoryId: memory.id };
  }
  const place = PLACE.exec(text);
  if (place !== null && place.index > 0) {
    const rest = ending(text.slice(0, place.index) + text.slice(place.index + place[0].length));
    if (words(rest).length >= 2) return { question: `Where: ${rest}?`, expected: place[1]!, memoryId: memory.id };
  }
  return null;
}

/** Right when the answer holds (nearly) every expected word, partly when it holds some, else wrong. */
export function markAnswer(expected: string, answer: string | null): HealthItem['mark'] {
  if (answer === null) return 'wrong';
  const wanted = new Set(words(expected));
  if (wanted.size === 0) return 'wrong';
  const given = new Set(words(answer));
  let shared = 0;
  for (const word of wanted) if (given.has(word)) shared += 1;
  const share = shared / wanted.size;
  return share >= RIGHT_SHARE ? 'right' : share >= PARTLY_SHARE ? 'partly' : 'wrong';
}

/** Up to MAX_QUESTIONS questions from memories, spread over them in their order, one per distinct answer. */
export function writeQuestions(memories: Pick<MemoryRow, 'id' | 'text' | 'about'>[]): HealthQuestion[] {
  const questions: HealthQuestion[] = [];
  const asked = new Set<string>();
  for (const memory of memories) {
    const question = questionOf(memory);
    if (question === null || asked.has(question.question)) continue;
    asked.add(question.question);
    questions.push(question);
    if (questions.length >= MAX_QUESTIONS) break;
  }
  return questions;
}

/** The outcome of one test. */
export interface HealthResult {
  asked: number;
  score: number;
  health: number | null;
  items: HealthItem[];
}

/**
 * Asks each question through the same recall and answer as POST /v1/ask, and marks the answers.
 * With the optional model, the model writes the questions and marks the answers, and answers
 * them as ask does; if it fails at any step the test is written and marked offline instead.
 */
export async function testMemories(
  db: Db,
  scope: Scope,
  memories: MemoryRow[],
  now: Date,
  model: Model | null = null,
): Promise<HealthResult> {
  if (model && memories.length) {
    const usage = { input: 0, output: 0 };
    try {
      return await testWithModel(db, scope, memories, now, model, usage);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      usage.input += error.usage.input;
      usage.output += error.usage.output;
      console.error(`[engram] memory health: the model failed (${error.reason}); testing offline`);
    } finally {
      await addModelTokens(db, scope, periodOf(now).start, usage);
    }
  }
  const items: HealthItem[] = [];
  for (const question of writeQuestions(memories)) {
    const found = await recall(db, scope, question.question, { limit: 12, kind: 'all', now });
    // The check looks for the memory's own written date, so a relative time is not answered as said.
    const { answer } = answerOffline(found.memories, found.empty, question.question, { asSaid: false });
    items.push({
      question: question.question,
      expected: question.expected,
      answer,
      mark: markAnswer(question.expected, answer),
      memory_ids: [question.memoryId],
    });
  }
  return resultOf(items);
}

function resultOf(items: HealthItem[]): HealthResult {
  const score = items.reduce((sum, item) => sum + (item.mark === 'right' ? 1 : item.mark === 'partly' ? 0.5 : 0), 0);
  return { asked: items.length, score, health: items.length ? score / items.length : null, items };
}

async function testWithModel(
  db: Db,
  scope: Scope,
  memories: MemoryRow[],
  now: Date,
  model: Model,
  usage: ModelUsage,
): Promise<HealthResult> {
  const count = (spent: ModelUsage) => {
    usage.input += spent.input;
    usage.output += spent.output;
  };
  const written = await writeQuestionsWithModel(model, memories, MAX_QUESTIONS);
  count(written.usage);
  const items: HealthItem[] = [];
  for (const question of written.questions) {
    const found = await recall(db, scope, question.question, { limit: 12, kind: 'all', now });
    let answer = answerOffline(found.memories, found.empty, question.question).answer;
    if (!found.empty && found.memories.length) {
      try {
        const byModel = await answerWithModel(model, question.question, found.memories, now);
        count(byModel.usage);
        answer = byModel.answer;
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        count(error.usage);
      }
    }
    items.push({ question: question.question, expected: question.expected, answer, mark: 'wrong', memory_ids: [question.memoryId] });
  }
  if (items.length) {
    const marked = await markWithModel(model, items);
    count(marked.usage);
    marked.marks.forEach((mark, index) => (items[index]!.mark = mark));
  }
  return resultOf(items);
}

/** Current memories of a space learned in [from, to), oldest first. */
async function memoriesLearned(db: Db, scope: Scope, from: Date, to: Date): Promise<MemoryRow[]> {
  return loadMemories(db, scope, await memoryIdsLearned(db, scope, from, to));
}

/** The newest current memories of a space, oldest of them first. */
async function newestMemories(db: Db, scope: Scope, limit: number): Promise<MemoryRow[]> {
  return loadMemories(db, scope, (await newestMemoryIdsLearned(db, scope, limit)).reverse());
}

/**
 * Tests a space now (POST /v1/memory-health/run): questions from what it learned in the last
 * day, or from its newest memories when it learned nothing then. Returns the stored result.
 * A space that does not exist (never written, or deleted) holds nothing to test: nothing is
 * stored and the answer is the empty one of GET /v1/memory-health.
 */
export async function runHealthNow(db: Db, scope: Scope, now: Date, model: Model | null = null): Promise<MemoryHealthResponse> {
  let memories = await memoriesLearned(db, scope, new Date(now.getTime() - 86_400_000), new Date(now.getTime() + 1));
  if (memories.length === 0) memories = await newestMemories(db, scope, 200);
  const result = await testMemories(db, scope, memories, now, model);
  // Only into a space that exists: a space deleted meanwhile is not an error.
  const runId = await startRequestedRun(db, scope, now.toISOString().slice(0, 10));
  if (runId === null) return latestHealth(db, scope);
  await finishRun(db, scope.accountId, runId, result);
  return latestHealth(db, scope);
}

/** When the nightly test runs: a local time of day in a time zone. */
export interface HealthSchedule {
  /** "HH:MM", 24-hour. */
  time: string;
  /** An IANA time zone ("UTC", "Europe/Lisbon"). */
  timeZone: string;
}

/** What the nightly test needs. */
export interface HealthDeps {
  db: Db;
  schedule: HealthSchedule;
  /** Who claims the runs (for the record); a new id per process by default. */
  claimedBy?: string;
  /** The optional model, which writes and marks the questions when set. */
  model?: Model | null;
}

const processId = `process_${randomUUID()}`;

/** The local calendar day and "HH:MM" of an instant in a time zone. */
export function localTime(instant: Date, timeZone: string): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The instant a local day starts in a time zone. */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const offsetAt = (instant: number) => {
    const local = localTime(new Date(instant), timeZone);
    const seconds = new Date(instant).getUTCSeconds() * 1000 + new Date(instant).getUTCMilliseconds();
    return Date.parse(`${local.day}T${local.time}:00Z`) + seconds - instant;
  };
  let start = guess - offsetAt(guess);
  start = guess - offsetAt(start);
  return new Date(start);
}

const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The nightly memory test, once per cluster: once the configured local time has passed, every
 * space that learned something on the previous local day is tested, each by whichever process
 * first inserts its (account, space, day) row; the others' inserts do nothing, so the test runs
 * once however many processes call this. Returns how many spaces this call tested.
 */
export async function runDueHealthChecks(deps: HealthDeps, now: Date): Promise<number> {
  const { day, time } = localTime(now, deps.schedule.timeZone);
  if (time < deps.schedule.time) return 0;
  const tested = previousDay(day);
  const from = startOfLocalDay(tested, deps.schedule.timeZone);
  const to = startOfLocalDay(day, deps.schedule.timeZone);
  const spaces = await spacesToTest(deps.db, from, to, tested);
  let ran = 0;
  for (const scope of spaces) {
    const runId = await claimNightlyRun(deps.db, scope, tested, deps.claimedBy ?? processId);
    if (runId === null) continue;
    const result = await testMemories(deps.db, scope, await memoriesLearned(deps.db, scope, from, to), now, deps.model ?? null);
    await finishRun(deps.db, scope.accountId, runId, result);
    ran += 1;
  }
  return ran;
}
