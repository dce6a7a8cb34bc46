/**
 * Assistant-chats benchmark: Engram's recall over one person's chats with an assistant
 * (bench/assistant-chats/README.md).
 *
 *   npm run bench:chats -- [--personas lena,noor] [--json out.json] [--misses misses.txt] [--answers answers.txt]
 *
 * Each persona's sessions are saved the way @engram/ai-sdk's middleware saves them: one
 * POST /v1/memories per finished turn, the user's words (with `at`, here the session's date)
 * and the assistant's reply, into a fresh space per persona. Then, per question: search
 * (R@5, R@10 by the user turns that hold the answer), context (answer in context, judged
 * empty, and for updated facts whether the latest value wins) and ask (token F1).
 *
 * Runs against a real Engram: one started in-process on a free port over an in-memory
 * PGlite, or the one at ENGRAM_BASE_URL (with ENGRAM_API_KEY).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repliedTo as middlewareRepliedTo } from '../../packages/ai-sdk/src/internal/prompt.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { learnFromMessages, readMessages } from '../../packages/server/src/learn/index.js';
import { startServer } from '../../packages/server/src/server.js';
import { answerInText, tokenF1 } from '../locomo/measure.js';

interface Message {
  role: 'user' | 'assistant';
  content: string;
}
interface Session {
  session: number;
  date: string;
  messages: Message[];
}
type Kind = 'fact' | 'preference' | 'update' | 'temporal' | 'aggregation' | 'unanswerable';
interface Question {
  kind: Kind;
  question: string;
  answer: string | null;
  /** For updated facts: the value the answer replaced, which must not win. */
  old?: string;
  evidence: { session: number; message: number }[];
}
interface Persona {
  persona: string;
  sessions: Session[];
  questions: Question[];
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, 'data');
let personas = readdirSync(dataDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as Persona);
const chosen = argument('personas');
if (chosen) personas = personas.filter((persona) => chosen.split(',').includes(persona.persona));
const missesPath = argument('misses');
const answersPath = argument('answers');
const misses: string[] = [];
const answerLines: string[] = [];

// ---- the server --------------------------------------------------------------------------
let baseUrl = process.env.ENGRAM_BASE_URL;
let apiKey = process.env.ENGRAM_API_KEY ?? '';
let close: (() => Promise<void>) | null = null;
if (!baseUrl) {
  apiKey = 'egk_bench_chats_0123456789abcdef';
  const server = await startServer(
    loadConfig({
      ENGRAM_PORT: '0',
      ENGRAM_DATA_DIR: 'memory://',
      ENGRAM_BOOTSTRAP_KEY: apiKey,
      ENGRAM_ACCOUNT_RPM: '1000000',
      ENGRAM_POLL_MS: '20',
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

// ---- the turns, as the middleware saves them ----------------------------------------------
/** One finished turn: a user message and the assistant's reply, where they sit in the session. */
interface Turn {
  session: number;
  /** Index in the session of the turn's first message saved (the assistant's message before the user's words, when there is one). */
  first: number;
  messages: { role: 'user' | 'assistant'; content: string; at?: string }[];
}
/**
 * The session's turns as `engramMemory()` posts them: the end of the assistant's message before the
 * turn, the user's words (`at` on them only, a minute apart), the reply.
 */
function turnsOf(session: Session): Turn[] {
  const turns: Turn[] = [];
  for (let index = 0; index < session.messages.length; index += 2) {
    const user = session.messages[index];
    const reply = session.messages[index + 1];
    if (user?.role !== 'user') throw new Error(`session ${session.session}: message ${index} is not the user's`);
    const at = new Date(Date.parse(session.date) + (index / 2) * 60_000).toISOString();
    // The middleware saves the end of the assistant's message the user's words reply to before them.
    const before = index > 0 ? session.messages[index - 1] : undefined;
    const repliedTo =
      before?.role === 'assistant'
        ? middlewareRepliedTo(
            [
              { role: 'assistant', content: [{ type: 'text', text: before.content }] },
              { role: 'user', content: [{ type: 'text', text: user.content }] },
            ],
            1,
          )
        : '';
    turns.push({
      session: session.session,
      first: repliedTo === '' ? index : index - 1,
      messages: [
        ...(repliedTo !== '' ? [{ role: 'assistant' as const, content: repliedTo }] : []),
        { role: 'user', content: user.content, at },
        ...(reply?.role === 'assistant' && reply.content !== '' ? [{ role: 'assistant' as const, content: reply.content }] : []),
      ],
    });
  }
  return turns;
}
const messageId = (session: number, message: number) => `S${session}:${message}`;

// ---- measuring ---------------------------------------------------------------------------
const KINDS: Kind[] = ['fact', 'preference', 'update', 'temporal', 'aggregation', 'unanswerable'];
interface Tally {
  questions: number;
  /** Questions with evidence, over which recall is averaged. */
  withEvidence: number;
  recall5: number;
  recall10: number;
  contextHas: number;
  f1: number;
  /** Answerable questions (gold answer given). */
  answerable: number;
  empty: number;
  /** Questions ask answered with null. */
  askNull: number;
  latest: number;
  updates: number;
  /** Share of the evidence turns that taught any memory (the most recall can find). */
  reachable: number;
}
const newTally = (): Tally => ({
  questions: 0,
  withEvidence: 0,
  recall5: 0,
  recall10: 0,
  contextHas: 0,
  f1: 0,
  answerable: 0,
  empty: 0,
  askNull: 0,
  latest: 0,
  updates: 0,
  reachable: 0,
});
const tallies = new Map<string, Tally>();
function tally(key: string): Tally {
  let entry = tallies.get(key);
  if (!entry) tallies.set(key, (entry = newTally()));
  return entry;
}
const learning: {
  persona: string;
  sessions: number;
  messages: number;
  turns: number;
  memories: number;
  fromUser: number;
  fromAssistant: number;
  untraced: number;
  seconds: number;
}[] = [];

function recallAt(ranked: (string | null)[], evidence: Set<string>, k: number): number {
  const found = new Set(ranked.slice(0, k).filter((id): id is string => id !== null && evidence.has(id)));
  return found.size / evidence.size;
}

/** Per question, the words of the top 10 memories in all (the context budget: at most 160). */
const wordsTop10: number[] = [];

/** Rank of the first memory whose text holds every word of `value`, or -1. */
const rankOf = (memories: { text: string }[], value: string) => memories.findIndex((memory) => answerInText(value, memory.text));

for (const persona of personas) {
  const space = `chats-${persona.persona}-${Date.now()}`;
  const turns = persona.sessions.flatMap(turnsOf);

  // Messages that teach at least one memory, by the learner alone: evidence elsewhere can never be found.
  const taught = new Set<string>();
  for (const turn of turns) {
    const facts = learnFromMessages(readMessages(turn.messages), { writtenAt: new Date(turn.messages[0]!.at!) });
    for (const fact of facts) {
      if (fact.sentence.messageIndex !== null) taught.add(messageId(turn.session, turn.first + fact.sentence.messageIndex));
    }
  }

  const turnOfSource = new Map<string, Turn>();
  const started = performance.now();
  for (const turn of turns) {
    const saved = await call('POST', '/v1/memories', space, { messages: turn.messages, space });
    turnOfSource.set(saved.source.id, turn);
  }
  for (const id of turnOfSource.keys()) {
    const waited = await call('GET', `/v1/sources/${id}?wait=60`, space);
    if (waited.source.status !== 'finished') throw new Error(`source ${id} ended ${waited.source.status}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const counts = (await call('GET', '/v1/memories?limit=1', space)).counts;
  const messages = persona.sessions.reduce((sum, session) => sum + session.messages.length, 0);
  learning.push({
    persona: persona.persona,
    sessions: persona.sessions.length,
    messages,
    turns: turns.length,
    memories: counts.all,
    fromUser: 0,
    fromAssistant: 0,
    untraced: 0,
    seconds,
  });
  process.stderr.write(`${persona.persona}: ${turns.length} turns → ${counts.all} memories in ${seconds.toFixed(1)} s\n`);

  const messageOf = new Map<number, string | null>();
  async function trace(memoryId: number): Promise<string | null> {
    if (messageOf.has(memoryId)) return messageOf.get(memoryId)!;
    const detail = await call('GET', `/v1/memories/${memoryId}`, space);
    const turn = turnOfSource.get(detail.memory.source.id);
    const index = detail.sentence.message_index;
    const id = turn && typeof index === 'number' ? messageId(turn.session, turn.first + index) : null;
    messageOf.set(memoryId, id);
    return id;
  }

  // Which messages every memory was learned from: the user's words, or the assistant's replies.
  const learned = learning[learning.length - 1]!;
  for (let cursor: number | undefined = 0; cursor !== undefined; ) {
    const page = await call('GET', `/v1/memories?limit=100${cursor ? `&cursor=${cursor}` : ''}`, space);
    for (const memory of page.memories) {
      const id = await trace(memory.id);
      if (id === null) learned.untraced += 1;
      else if (Number(id.split(':')[1]) % 2 === 0) learned.fromUser += 1;
      else learned.fromAssistant += 1;
    }
    cursor = page.next;
  }

  for (const item of persona.questions) {
    const evidence = new Set(item.evidence.map((entry) => messageId(entry.session, entry.message)));
    const found = await call('POST', '/v1/search', space, { q: item.question, limit: 50 });
    const ranked: (string | null)[] = [];
    for (const memory of found.memories) ranked.push(await trace(memory.id));
    wordsTop10.push(
      found.memories
        .slice(0, 10)
        .reduce((sum: number, memory: { text: string }) => sum + memory.text.split(/\s+/).filter(Boolean).length, 0),
    );
    const context = await call('POST', '/v1/context', space, { question: item.question, limit: 12 });
    const asked = await call('POST', '/v1/ask', space, { question: item.question });
    const hasAnswer = item.answer !== null && answerInText(item.answer, context.context);
    const f1 = item.answer !== null ? tokenF1(asked.answer ?? '', item.answer) : 0;
    let latest = false;
    if (item.kind === 'update' && item.answer !== null && item.old) {
      const memories: { text: string }[] = context.memories;
      const goldRank = rankOf(memories, item.answer);
      const oldRank = rankOf(memories, item.old);
      // The same memory may hold both ("swimming now, running is a bonus"): it states the new value.
      latest = hasAnswer && (oldRank === -1 || (goldRank !== -1 && goldRank <= oldRank));
    }
    for (const key of [item.kind, item.answer === null ? 'all unanswerable' : 'all answerable']) {
      const entry = tally(key);
      entry.questions += 1;
      if (context.empty) entry.empty += 1;
      if (asked.answer === null || asked.answer === undefined) entry.askNull += 1;
      if (evidence.size) {
        entry.withEvidence += 1;
        entry.recall5 += recallAt(ranked, evidence, 5);
        entry.recall10 += recallAt(ranked, evidence, 10);
        entry.reachable += [...evidence].filter((id) => taught.has(id)).length / evidence.size;
      }
      if (item.answer !== null) {
        entry.answerable += 1;
        if (hasAnswer) entry.contextHas += 1;
        entry.f1 += f1;
      }
      if (item.kind === 'update') {
        entry.updates += 1;
        if (latest) entry.latest += 1;
      }
    }
    if (missesPath && evidence.size && recallAt(ranked, evidence, 10) < 1) {
      const textOf = (id: string) => {
        const [session, message] = id.slice(1).split(':').map(Number);
        return persona.sessions[session!]?.messages[message!]?.content ?? '?';
      };
      misses.push(
        `Q [${persona.persona} ${item.kind}] ${item.question}\n` +
          [...evidence].map((id) => `  want ${id} at ${ranked.indexOf(id) + 1 || '-'}: ${textOf(id)}\n`).join('') +
          found.memories
            .slice(0, 5)
            .map((memory: { text: string; score: number }, index: number) => `  got ${ranked[index]} ${memory.score} ${memory.text}\n`)
            .join(''),
      );
    }
    if (answersPath) {
      answerLines.push(
        `[${persona.persona} ${item.kind}] ${item.question}\n  gold: ${item.answer}${item.old ? ` (was ${item.old})` : ''}\n` +
          `  ask:  ${asked.answer}  (F1 ${f1.toFixed(2)})\n  context: ${context.empty ? 'empty' : `${context.used} memories`}` +
          `${item.answer !== null ? `, answer ${hasAnswer ? 'in' : 'not in'} it` : ''}${item.kind === 'update' ? `, latest ${latest ? 'wins' : 'loses'}` : ''}` +
          // What a question nothing answers was answered with: the first few memories of its context.
          (item.answer === null && !context.empty
            ? context.memories
                .slice(0, 3)
                .map((memory: { text: string }) => `\n    - ${memory.text}`)
                .join('')
            : ''),
      );
    }
  }
}
await close?.();

// ---- report ------------------------------------------------------------------------------
const percent = (value: number, of: number) => (of ? ((100 * value) / of).toFixed(1) : '–');
const lines: string[] = [];
const overall = [...KINDS].reduce((sum, kind) => sum + (tallies.get(kind)?.questions ?? 0), 0);
lines.push(`Assistant chats (${personas.map((persona) => persona.persona).join(', ')}), ${overall} questions`);
lines.push('');
lines.push('| kind | n | R@5 | R@10 | answer in context | ask F1 | judged empty | ask null | latest wins | reachable |');
lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const key of [...KINDS, 'all answerable', 'all unanswerable']) {
  const entry = tallies.get(key);
  if (!entry) continue;
  lines.push(
    `| ${key} | ${entry.questions} | ${percent(entry.recall5, entry.withEvidence)} | ${percent(entry.recall10, entry.withEvidence)} | ` +
      `${percent(entry.contextHas, entry.answerable)} | ${percent(entry.f1, entry.answerable)} | ${percent(entry.empty, entry.questions)} | ` +
      `${percent(entry.askNull, entry.questions)} | ${percent(entry.latest, entry.updates)} | ${percent(entry.reachable, entry.withEvidence)} |`,
  );
}
lines.push('');
const answerable = tallies.get('all answerable') ?? newTally();
const unanswerable = tallies.get('all unanswerable') ?? newTally();
lines.push(
  `judged empty: unanswerable ${percent(unanswerable.empty, unanswerable.questions)}% of ${unanswerable.questions} (target >= 90), ` +
    `answerable ${percent(answerable.empty, answerable.questions)}% of ${answerable.questions} (target <= 2)`,
);
lines.push(
  `words in the top 10 per question: mean ${(wordsTop10.reduce((sum, count) => sum + count, 0) / Math.max(1, wordsTop10.length)).toFixed(1)}, ` +
    `over 160 in ${wordsTop10.filter((count) => count > 160).length} of ${wordsTop10.length}`,
);
for (const entry of learning) {
  lines.push(
    `learning ${entry.persona}: ${entry.sessions} sessions, ${entry.messages} messages, ${entry.turns} turns saved → ${entry.memories} memories ` +
      `(${entry.fromUser} from the user's words, ${entry.fromAssistant} from the assistant's replies, ${entry.untraced} untraced), ` +
      `${entry.seconds.toFixed(1)} s through the API`,
  );
}
lines.push(
  `mode: ${process.env.ENGRAM_LLM_BASE_URL && !process.env.ENGRAM_BASE_URL ? `model ${process.env.ENGRAM_LLM_MODEL ?? 'gpt-4o-mini'}` : 'offline (or the server at ENGRAM_BASE_URL)'}`,
);
console.log(lines.join('\n'));
if (missesPath) writeFileSync(missesPath, misses.join('\n'));
if (answersPath) writeFileSync(answersPath, answerLines.join('\n'));
const jsonPath = argument('json');
if (jsonPath) writeFileSync(jsonPath, JSON.stringify({ tallies: Object.fromEntries(tallies), learning }, null, 2));
