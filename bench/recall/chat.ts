/**
 * Recall latency in the pattern of a chat: each turn asks for context, then saves the turn,
 * which is learned before the next one. Over one LoCoMo conversation's memories.
 *
 *   npx tsx bench/recall/chat.ts      # BENCH_TURNS (default 60)
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';
import { parseSessionDate } from '../locomo/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = JSON.parse(readFileSync(process.env.LOCOMO_PATH ?? resolve(here, '../../../shared/eval/locomo-dev.json'), 'utf8'));
const sample = samples[0];
const turns = Number(process.env.BENCH_TURNS ?? 60);
const key = 'egk_bench_chat_0123456789abcdef0';
const server = await startServer(
  loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_DATA_DIR: 'memory://',
    ENGRAM_BOOTSTRAP_KEY: key,
    ENGRAM_POLL_MS: '20',
    ENGRAM_ACCOUNT_RPM: '1000000',
  }),
  { announceKey: () => {} },
);
const call = async (method: string, path: string, body?: unknown) =>
  (await (
    await fetch(server.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json()) as any;

const sessions = Object.keys(sample.conversation).filter((name) => /^session_\d+$/.test(name));
const saved: string[] = [];
for (const name of sessions) {
  const at = parseSessionDate(sample.conversation[`${name}_date_time`]).toISOString();
  const reply = await call('POST', '/v1/memories', {
    messages: sample.conversation[name].map((turn: any) => ({ role: 'user', name: turn.speaker, content: turn.text, at })),
  });
  saved.push(reply.source.id);
}
for (const id of saved) await call('GET', `/v1/sources/${id}?wait=60`);
const memories = (await call('GET', '/v1/memories?limit=1')).counts.all;

const questions = sample.qa.map((item: any) => item.question);
const latencies: number[] = [];
for (let turn = 0; turn < turns; turn++) {
  const started = performance.now();
  await call('POST', '/v1/context', { question: questions[turn % questions.length], limit: 12 });
  latencies.push(performance.now() - started);
  const reply = await call('POST', '/v1/memories', {
    messages: [{ role: 'user', name: 'Priya', content: `Turn ${turn}: I went to a pottery class with my friend number ${turn} today.` }],
  });
  await call('GET', `/v1/sources/${reply.source.id}?wait=20`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await server.close();
latencies.sort((left, right) => left - right);
const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
console.log(
  `${turns} turns over ${memories} memories: context p50 ${quantile(0.5)} ms, p95 ${quantile(0.95)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
);
