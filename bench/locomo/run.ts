/**
 * LoCoMo retrieval benchmark (protocol: shared/eval/README.md).
 *
 *   npm run bench:locomo -- [--conversations conv-26,conv-30 | --conversations 2] [--no-answers] [--json out.json]
 *     [--misses misses.txt] [--ranks ranks.jsonl] [--answers answers.txt] [--contexts contexts.json] [--judge]
 *
 * Model mode: with ENGRAM_LLM_BASE_URL (and ENGRAM_LLM_API_KEY, ENGRAM_LLM_MODEL) set, the
 * in-process server learns and answers with that model (docs/model.md); without them every
 * figure is the offline one. --judge adds LoCoMo's LLM-judge score of ask's answers, which
 * needs a model (ENGRAM_JUDGE_* or the ENGRAM_LLM_* ones) and so cannot run offline.
 *
 * Runs against a real Engram: one started in-process on a free port over an in-memory
 * PGlite, or the one at ENGRAM_BASE_URL (with ENGRAM_API_KEY). The data is read from
 * ../shared/eval/locomo-dev.json (or LOCOMO_PATH) and never copied into the repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../packages/server/src/config.js';
import { learnFromMessages, readMessages } from '../../packages/server/src/learn/index.js';
import { questionNames } from '../../packages/server/src/recall/query.js';
import { startServer } from '../../packages/server/src/server.js';
import { bm25Ranking } from './bm25.js';
import { createJudge } from './judge.js';
import { answerInText, normaliseEvidence, sessionsOf as sessionsOfConversation, tokenF1, turnText } from './measure.js';

interface Question {
  question: string;
  answer?: string | number;
  adversarial_answer?: string;
  evidence: string[];
  category: number;
}
interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Question[];
}

/** Questions nothing in any conversation answers: the share judged empty should be high. */
const UNRELATED = [
  'What is the capital of Peru?',
  'Which planet is the largest in the solar system?',
  'How many moons does Neptune have?',
  'What is the boiling point of mercury?',
  'Who wrote the Brothers Karamazov?',
  'What is the exchange rate of the Swiss franc?',
  'Which enzyme breaks down lactose?',
  'What year did the Byzantine Empire fall?',
  'How tall is Mount Kilimanjaro?',
  'What is the chemical symbol for tungsten?',
  'Who won the 1998 football World Cup?',
  'What is the population of Mongolia?',
  'How does a quantum computer factor integers?',
  'What is the speed of sound in water?',
  'Which river flows through Budapest?',
  'When was the transistor invented?',
  'What programming language is Kubernetes written in?',
  'What is the airspeed velocity of an unladen swallow?',
  'Who is the prime minister of Japan?',
  'How many bones are in the human hand?',
];

const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial' };

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const here = dirname(fileURLToPath(import.meta.url));
const dataPath = process.env.LOCOMO_PATH ?? resolve(here, '../../../shared/eval/locomo-dev.json');
let samples = JSON.parse(readFileSync(dataPath, 'utf8')) as Sample[];
const chosen = argument('conversations');
if (chosen) {
  samples = /^\d+$/.test(chosen)
    ? samples.slice(0, Number(chosen))
    : samples.filter((sample) => chosen.split(',').includes(sample.sample_id));
}
const withAnswers = !flag('no-answers');
const judge = flag('judge') ? createJudge() : null;
const missesPath = argument('misses');
/** --answers FILE: each answerable question with the gold answer and what ask wrote. */
const answersPath = argument('answers');
const answerLines: string[] = [];
/** --contexts FILE: each answerable question with its context block, its memories' sentences and the evidence turns (JSON). */
const contextsPath = argument('contexts');
const contextRecords: unknown[] = [];
const misses: string[] = [];
/** --ranks FILE: every question with the rank of each evidence turn, what the learner wrote from it, and the best 50 (JSON lines). */
const ranksPath = argument('ranks');
const rankLines: string[] = [];
/** The best score of each question, to calibrate when recall judges that nothing is known. */
const bestScores: { category: string; best: number; judged: number | null }[] = [];

const sessionsOf = (sample: Sample) => sessionsOfConversation(sample.conversation);
type Session = ReturnType<typeof sessionsOf>[number];

// ---- the server --------------------------------------------------------------------------
let baseUrl = process.env.ENGRAM_BASE_URL;
let apiKey = process.env.ENGRAM_API_KEY ?? '';
let close: (() => Promise<void>) | null = null;
if (!baseUrl) {
  apiKey = 'egk_bench_locomo_0123456789abcdef';
  const server = await startServer(
    loadConfig({
      ENGRAM_PORT: '0',
      ENGRAM_DATA_DIR: 'memory://',
      ENGRAM_BOOTSTRAP_KEY: apiKey,
      ENGRAM_ACCOUNT_RPM: '1000000',
      ENGRAM_POLL_MS: '20',
      // Model mode when the operator's ENGRAM_LLM_* are set; offline otherwise.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('ENGRAM_LLM_'))),
    }),
    { announceKey: () => {} },
  );
  baseUrl = server.url;
  close = () => server.close();
}

async function call(method: string, path: string, space: string, body?: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, 'X-Memory-Space': space, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

// ---- measuring ---------------------------------------------------------------------------
const KS = [5, 10, 25, 50] as const;
interface Tally {
  questions: number;
  recall: Record<(typeof KS)[number], number>;
  hit10: number;
  mrr: number;
  bm25: Record<(typeof KS)[number], number>;
  contextHas: number;
  contextAsked: number;
  f1: number;
  f1Asked: number;
  empty: number;
  /** Answers the LLM judge read (--judge), and those it found correct. */
  judged: number;
  judgedCorrect: number;
  /** Share of the evidence turns that taught any memory (the most recall can find). */
  reachable: number;
}
const newTally = (): Tally => ({
  questions: 0,
  recall: { 5: 0, 10: 0, 25: 0, 50: 0 },
  hit10: 0,
  mrr: 0,
  bm25: { 5: 0, 10: 0, 25: 0, 50: 0 },
  contextHas: 0,
  contextAsked: 0,
  f1: 0,
  judged: 0,
  judgedCorrect: 0,
  f1Asked: 0,
  empty: 0,
  reachable: 0,
});
const tallies = new Map<string, Tally>();
const tally = (key: string) => tallies.get(key) ?? (tallies.set(key, newTally()), tallies.get(key)!);
const latencies: number[] = [];
let wordsReturned = 0;
let memoriesReturned = 0;
let words10 = 0;
let returned10 = 0;
/** Per question, the words of the top 10 memories in all (the context budget: at most 160). */
const wordsTop10: number[] = [];
const learning: { id: string; turns: number; seconds: number; memories: number }[] = [];
let learnerTurns = 0;
let learnerSeconds = 0;
let unrelatedEmpty = 0;
let unrelatedAsked = 0;

/** The score recall judges by (recall/search.ts `judge`), from the memories a search returned. */
function judged(memories: { score: number; about: string[] }[], question: string): number {
  const names = questionNames(question);
  const about = (memory: { about: string[] }) =>
    memory.about.some((known) => names.some((name) => known.toLowerCase() === name || known.toLowerCase().startsWith(`${name} `)));
  return (memories.find(about) ?? memories[0])?.score ?? 0;
}

/** Share of the evidence turns among the first k of a ranked list of turn ids. */
function recallAt(ranked: (string | null)[], evidence: Set<string>, k: number): number {
  if (!evidence.size) return 1;
  const found = new Set(ranked.slice(0, k).filter((id): id is string => id !== null && evidence.has(id)));
  return found.size / evidence.size;
}

for (const sample of samples) {
  const sessions = sessionsOf(sample);
  const space = `locomo-${sample.sample_id}-${Date.now()}`;
  const turnsInAll = sessions.reduce((sum, session) => sum + session.turns.length, 0);

  // The learner alone, in this process, on one core: turns a second (after one warm-up pass
  // over the first session, so that the tagger's start-up is not counted).
  const [firstSession] = sessions;
  if (!learnerTurns && firstSession !== undefined)
    learnFromMessages(
      readMessages(firstSession.turns.map((turn) => ({ role: 'user', name: turn.speaker, content: turnText(turn), at: firstSession.at }))),
      { writtenAt: new Date() },
    );
  const pureStart = performance.now();
  const learned = sessions.map((session) => {
    const messages = readMessages(
      session.turns.map((turn) => ({ role: 'user', name: turn.speaker, content: turnText(turn), at: session.at })),
    );
    return learnFromMessages(messages, { writtenAt: new Date(session.at) });
  });
  learnerSeconds += (performance.now() - pureStart) / 1000;
  // Turns that taught at least one memory: evidence in no such turn can never be found.
  const taught = new Set<string>();
  learned.forEach((facts, index) => {
    for (const fact of facts) {
      const turn = fact.sentence.messageIndex === null ? undefined : sessions[index]?.turns[fact.sentence.messageIndex];
      if (turn) taught.add(turn.dia_id);
    }
  });
  learnerTurns += turnsInAll;

  // Through the API: every session saved, then waited for.
  const sourceSession = new Map<string, Session>();
  const learnStart = performance.now();
  const sourceIds: string[] = [];
  for (const session of sessions) {
    const saved = await call('POST', '/v1/memories', space, {
      title: `${sample.sample_id} session ${session.number}`,
      messages: session.turns.map((turn) => ({ role: 'user', name: turn.speaker, content: turnText(turn), at: session.at })),
    });
    sourceSession.set(saved.source.id, session);
    sourceIds.push(saved.source.id);
  }
  for (const id of sourceIds) {
    const waited = await call('GET', `/v1/sources/${id}?wait=60`, space);
    if (waited.source.status !== 'finished') throw new Error(`source ${id} ended ${waited.source.status}`);
  }
  const seconds = (performance.now() - learnStart) / 1000;
  const counts = (await call('GET', '/v1/memories?limit=1', space)).counts;
  learning.push({ id: sample.sample_id, turns: turnsInAll, seconds, memories: counts.all });
  process.stderr.write(`${sample.sample_id}: ${turnsInAll} turns → ${counts.all} memories in ${seconds.toFixed(1)} s\n`);

  const turnOf = new Map<number, string | null>();
  const sentenceOf = new Map<number, string>();
  /** Where each traced memory came from (its source, message and sentence), for --contexts. */
  const placeOf = new Map<number, { source: string; message_index: number | null; sentence_start: number }>();
  async function traceTurn(memoryId: number): Promise<string | null> {
    if (turnOf.has(memoryId)) return turnOf.get(memoryId)!;
    const detail = await call('GET', `/v1/memories/${memoryId}`, space);
    sentenceOf.set(memoryId, detail.sentence?.text ?? '');
    placeOf.set(memoryId, {
      source: detail.memory.source.id,
      message_index: detail.sentence?.message_index ?? null,
      sentence_start: detail.sentence?.start ?? 0,
    });
    const session = sourceSession.get(detail.memory.source.id);
    const index = detail.sentence.message_index;
    const turn = session && typeof index === 'number' ? (session.turns[index]?.dia_id ?? null) : null;
    turnOf.set(memoryId, turn);
    return turn;
  }

  const bm25 = bm25Ranking(sessions.flatMap((session) => session.turns.map((turn) => ({ id: turn.dia_id, text: turnText(turn) }))));

  for (const item of sample.qa) {
    const category = CATEGORY_NAMES[item.category] ?? String(item.category);
    const evidence = normaliseEvidence(item.evidence);
    const started = performance.now();
    const found = await call('POST', '/v1/search', space, { q: item.question, limit: 50 });
    latencies.push(performance.now() - started);
    bestScores.push({ category, best: found.memories[0]?.score ?? 0, judged: judged(found.memories, item.question) });
    const ranked: (string | null)[] = [];
    let questionWords10 = 0;
    for (const memory of found.memories) {
      ranked.push(await traceTurn(memory.id));
      const count = memory.text.split(/\s+/).filter(Boolean).length;
      wordsReturned += count;
      memoriesReturned += 1;
      if (ranked.length <= 10) {
        words10 += count;
        returned10 += 1;
        questionWords10 += count;
      }
    }
    wordsTop10.push(questionWords10);
    const baseline = bm25(item.question, 50);
    if (ranksPath) {
      const byId = new Map(sessions.flatMap((session) => session.turns.map((turn) => [turn.dia_id, turn] as const)));
      rankLines.push(
        JSON.stringify({
          conversation: sample.sample_id,
          category,
          question: item.question,
          evidence: [...evidence].map((id) => ({
            id,
            rank: ranked.indexOf(id) + 1 || null,
            text: byId.get(id) ? turnText(byId.get(id)!) : null,
            learned: learned.flatMap((facts, index) =>
              facts.filter((fact) => sessions[index]?.turns[fact.sentence.messageIndex ?? -1]?.dia_id === id).map((fact) => fact.text),
            ),
          })),
          ranked: found.memories.map((memory: { text: string; score: number }, index: number) => ({
            turn: ranked[index],
            score: memory.score,
            text: memory.text,
          })),
        }),
      );
    }
    if (missesPath && recallAt(ranked, evidence, 10) < 1) {
      const byId = new Map(sessions.flatMap((session) => session.turns.map((turn) => [turn.dia_id, turn] as const)));
      misses.push(
        `Q [${category}] ${item.question}\n` +
          [...evidence]
            .map(
              (id) =>
                `  want ${id} at ${ranked.indexOf(id) + 1 || '-'} ${byId.get(id)?.speaker}: ${byId.get(id) ? turnText(byId.get(id)!) : '?'}\n`,
            )
            .join('') +
          found.memories
            .slice(0, 5)
            .map((memory: { text: string; score: number }, index: number) => `  got ${ranked[index]} ${memory.score} ${memory.text}\n`)
            .join(''),
      );
    }
    for (const key of [category, 'overall']) {
      const entry = tally(key);
      entry.questions += 1;
      entry.reachable += evidence.size ? [...evidence].filter((id) => taught.has(id)).length / evidence.size : 1;
      for (const k of KS) {
        entry.recall[k] += recallAt(ranked, evidence, k);
        entry.bm25[k] += recallAt(baseline, evidence, k);
      }
      const first = ranked.findIndex((id) => id !== null && evidence.has(id));
      if (first !== -1 && first < 10) entry.hit10 += 1;
      if (first !== -1) entry.mrr += 1 / (first + 1);
      if (!evidence.size) {
        entry.hit10 += 1;
        entry.mrr += 1;
      }
    }
    if (withAnswers) {
      const context = await call('POST', '/v1/context', space, { question: item.question, limit: 12 });
      const asked = await call('POST', '/v1/ask', space, { question: item.question });
      const verdict = judge && item.answer !== undefined ? await judge(item.question, String(item.answer), asked.answer) : null;
      for (const key of [category, 'overall']) {
        const entry = tally(key);
        if (context.empty) entry.empty += 1;
        if (item.answer !== undefined) {
          entry.contextAsked += 1;
          if (answerInText(String(item.answer), context.context)) entry.contextHas += 1;
          entry.f1Asked += 1;
          entry.f1 += tokenF1(asked.answer ?? '', String(item.answer));
          if (verdict !== null) {
            entry.judged += 1;
            if (verdict) entry.judgedCorrect += 1;
          }
        }
      }
      if (answersPath && item.answer !== undefined) {
        answerLines.push(
          `[${category}] ${item.question}\n  gold: ${item.answer}\n  ask:  ${asked.answer}  (F1 ${tokenF1(asked.answer ?? '', String(item.answer)).toFixed(2)})` +
            `\n  in context: ${answerInText(String(item.answer), context.context) ? 'yes' : 'no'}`,
        );
      }
      if (contextsPath && item.answer !== undefined) {
        const byId = new Map(sessions.flatMap((session) => session.turns.map((turn) => [turn.dia_id, turn] as const)));
        for (const memory of context.memories as { id: number }[]) await traceTurn(memory.id);
        contextRecords.push({
          conversation: sample.sample_id,
          category,
          question: item.question,
          gold: String(item.answer),
          ask: asked.answer,
          empty: context.empty,
          context: context.context,
          memories: (context.memories as { id: number; text: string; date: string }[]).map((memory) => ({
            text: memory.text,
            date: memory.date,
            sentence: sentenceOf.get(memory.id) ?? '',
            turn: turnOf.get(memory.id) ?? null,
          })),
          ranked: (found.memories as { id: number; text: string; date: string; score: number; kind: string; about: string[] }[]).map(
            (memory, index) => ({
              id: memory.id,
              ...placeOf.get(memory.id),
              kind: memory.kind,
              about: memory.about,
              text: memory.text,
              date: memory.date,
              score: memory.score,
              sentence: sentenceOf.get(memory.id) ?? '',
              turn: ranked[index] ?? null,
            }),
          ),
          evidence: [...evidence].map((id) => ({ id, text: byId.get(id) ? turnText(byId.get(id)!) : null })),
        });
      }
    }
  }
  for (const question of UNRELATED) {
    const found = await call('POST', '/v1/search', space, { q: question, limit: 50 });
    bestScores.push({ category: 'unrelated', best: found.memories[0]?.score ?? 0, judged: judged(found.memories, question) });
  }
  if (withAnswers) {
    for (const question of UNRELATED) {
      const context = await call('POST', '/v1/context', space, { question, limit: 12 });
      unrelatedAsked += 1;
      if (context.empty) unrelatedEmpty += 1;
      // An unrelated question judged known, with what it was answered from.
      else if (answersPath)
        answerLines.push(
          `[unrelated] ${question} (${sample.sample_id})\n  context: ${context.used} memories` +
            context.memories
              .slice(0, 3)
              .map((memory: { text: string }) => `\n    - ${memory.text}`)
              .join(''),
        );
    }
  }
}
await close?.();

// ---- report ------------------------------------------------------------------------------
const percent = (value: number, of: number) => (of ? ((100 * value) / of).toFixed(1) : '–');
const order = ['single-hop', 'multi-hop', 'temporal', 'open-domain', 'adversarial', 'overall'];
const lines: string[] = [];
lines.push(`LoCoMo dev (${samples.map((sample) => sample.sample_id).join(', ')}), ${tally('overall').questions} questions`);
lines.push('');
lines.push(
  '| category | n | R@5 | R@10 | R@25 | R@50 | hit@10 | MRR | BM25 R@5 | BM25 R@10 | BM25 R@25 | answer in context | ask F1 | empty | reachable |',
);
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const key of order) {
  const entry = tallies.get(key);
  if (!entry) continue;
  const n = entry.questions;
  lines.push(
    `| ${key} | ${n} | ${KS.map((k) => percent(entry.recall[k], n)).join(' | ')} | ${percent(entry.hit10, n)} | ${(entry.mrr / n).toFixed(3)} | ` +
      `${([5, 10, 25] as const).map((k) => percent(entry.bm25[k], n)).join(' | ')} | ${withAnswers ? percent(entry.contextHas, entry.contextAsked) : '–'} | ` +
      `${withAnswers ? percent(entry.f1, entry.f1Asked) : '–'} | ${withAnswers ? percent(entry.empty, n) : '–'} | ${percent(entry.reachable, n)} |`,
  );
}
const sorted = [...latencies].sort((left, right) => left - right);
const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
lines.push('');
lines.push(
  `mean words per returned memory: ${(wordsReturned / Math.max(1, memoriesReturned)).toFixed(1)} (top 10: ${(words10 / Math.max(1, returned10)).toFixed(1)})`,
);
const words10Sorted = [...wordsTop10].sort((left, right) => left - right);
lines.push(
  `words in the top 10 per question: mean ${(wordsTop10.reduce((sum, count) => sum + count, 0) / Math.max(1, wordsTop10.length)).toFixed(1)}, ` +
    `p95 ${words10Sorted[Math.min(words10Sorted.length - 1, Math.floor(0.95 * words10Sorted.length))] ?? 0}, over 160 in ${wordsTop10.filter((count) => count > 160).length} of ${wordsTop10.length}`,
);
if (withAnswers) lines.push(`unrelated questions judged empty: ${percent(unrelatedEmpty, unrelatedAsked)}% of ${unrelatedAsked}`);
lines.push(
  `search latency (HTTP, limit 50): p50 ${quantile(0.5).toFixed(1)} ms, p95 ${quantile(0.95).toFixed(1)} ms (load average at the end ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores)`,
);
lines.push(`learner alone (one core, no store): ${(learnerTurns / learnerSeconds).toFixed(0)} turns/s`);
for (const entry of learning) {
  lines.push(
    `learning ${entry.id}: ${entry.turns} turns → ${entry.memories} memories, ${entry.seconds.toFixed(1)} s through the API (${(entry.turns / entry.seconds).toFixed(0)} turns/s)`,
  );
}
if (judge) {
  const overall = tally('overall');
  lines.push(`LLM judge (J): ${percent(overall.judgedCorrect, overall.judged)}% of ${overall.judged} answerable questions`);
}
lines.push(
  `mode: ${process.env.ENGRAM_LLM_BASE_URL && !process.env.ENGRAM_BASE_URL ? `model ${process.env.ENGRAM_LLM_MODEL ?? 'gpt-4o-mini'}` : 'offline (or the server at ENGRAM_BASE_URL)'}`,
);
console.log(lines.join('\n'));
const scoresPath = argument('scores');
if (scoresPath) writeFileSync(scoresPath, JSON.stringify(bestScores));
if (missesPath) writeFileSync(missesPath, misses.join('\n'));
if (ranksPath) writeFileSync(ranksPath, `${rankLines.join('\n')}\n`);
if (answersPath) writeFileSync(answersPath, answerLines.join('\n'));
if (contextsPath) writeFileSync(contextsPath, JSON.stringify(contextRecords));
const jsonPath = argument('json');
if (jsonPath)
  writeFileSync(
    jsonPath,
    JSON.stringify({ tallies: Object.fromEntries(tallies), latencies: { p50: quantile(0.5), p95: quantile(0.95) }, learning }, null, 2),
  );
