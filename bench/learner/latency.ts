/**
 * Search latency while a large note is being learned, with the learner on threads of its own
 * and on the API's thread (ENGRAM_LEARNER_THREADS=0).
 *
 *   npm run build && npx tsx bench/learner/latency.ts      # BENCH_NOTE_BYTES (default 300000)
 *
 * Runs the built server (dist), since learner threads start from dist/learn/thread.js.
 */
import { loadConfig } from '../../packages/server/dist/config.js';
import { startServer } from '../../packages/server/dist/server.js';

const bytes = Number(process.env.BENCH_NOTE_BYTES ?? 300_000);
const sentences = [
  'Mara repaired the {n}th bicycle in her workshop in Ghent last week.',
  'Her brother Jonas sold it to a teacher who lives near the river.',
  'She plans to open a second shop in Antwerp next month.',
  'Mara prefers steel frames to carbon ones.',
];
let note = '';
for (let n = 1; note.length < bytes; n++) note += sentences.map((sentence) => sentence.replace('{n}', String(n))).join(' ') + '\n';

async function measure(threads: string) {
  const key = 'egk_bench_latency_0123456789abcdef';
  const server = await startServer(
    loadConfig({
      ENGRAM_PORT: '0',
      ENGRAM_DATA_DIR: 'memory://',
      ENGRAM_BOOTSTRAP_KEY: key,
      ENGRAM_POLL_MS: '20',
      ENGRAM_LEARNER_THREADS: threads,
    }),
    { announceKey: () => {} },
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
  await call('POST', '/v1/memories', { text: 'Mara lives in Ghent. Mara repairs bicycles.' });
  const started = performance.now();
  const saved = await call('POST', '/v1/memories', { text: note });
  const latencies: number[] = [];
  for (;;) {
    const at = performance.now();
    await call('POST', '/v1/search', { q: 'Where does Mara live?', limit: 10 });
    latencies.push(performance.now() - at);
    const source = await call('GET', `/v1/sources/${saved.source.id}`);
    if (source.source.status === 'finished') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const learned = (performance.now() - started) / 1000;
  await server.close();
  latencies.sort((left, right) => left - right);
  const quantile = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(
    `| ${server.learnerThreads} | ${(bytes / 1000).toFixed(0)} kB | ${learned.toFixed(1)} s | ${latencies.length} | ${quantile(0.5)} ms | ${quantile(0.95)} ms | ${latencies.at(-1)!.toFixed(1)} ms |`,
  );
}

console.log('| learner threads | note | learned in | searches meanwhile | p50 | p95 | max |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
await measure('1');
await measure('0');
