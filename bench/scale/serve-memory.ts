/**
 * `engram serve` alone on a space of 100k memories: where its resident memory goes. Fills an
 * embedded data directory once, then starts a built CLI on a copy of it and reads, from /proc,
 * its RSS (and the anonymous and file-backed parts of it) idle, after 30 searches, after 32
 * callers searched and saved, and at its peak, with the process's CPU seconds and the search and
 * save latencies. Meant for comparing builds and settings back to back on copies of one store
 * (docs/benchmarks.md, "Memory: where `engram serve`'s resident memory goes").
 *
 *   npm run build
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/serve-memory.ts fill /tmp/space-100k
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/serve-memory.ts run \
 *     --cli packages/server/dist/cli.js --store /tmp/space-100k --label new [--threads]
 *
 * `run` copies the store to a temporary directory first and removes the copy after. With
 * `--threads` the server is started with `--import bench/scale/thread-memory.mjs`, which logs each
 * thread's V8 heap and the WebAssembly memories it made (PGlite's) to stderr every second; the
 * last figures of each thread are printed. Extra environment (`ENGRAM_…`, `NODE_OPTIONS`) passes
 * through to the server. `--database-url` measures a PostgreSQL database instead (filled the same
 * way with `fill --database-url URL`). `--throughput S` adds, after the 30 searches, S seconds of
 * `GET /healthz` and then S seconds of `POST /v1/search` from `--callers` callers at once (16 by
 * default), printing requests a second of each and their ratio: how much of the bare stack's
 * throughput search keeps (the callers run in this process, on the same cores). `--searches N`
 * measures N sequential searches instead of 30, after `--warm N` unmeasured ones.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../../packages/server/dist/config.js';
import { startServer } from '../../packages/server/dist/server.js';
import { storeFacts } from '../../packages/server/dist/store/memory-repository.js';
import { ensureSpace } from '../../packages/server/dist/store/source-repository.js';
import { percentiles } from '../common/figures.js';
import { cpuSeconds } from '../common/process-cpu.js';
import { fact, note, questions } from './generated.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cli: { type: 'string', default: 'packages/server/dist/cli.js' },
    store: { type: 'string' },
    'database-url': { type: 'string' },
    label: { type: 'string', default: '' },
    memories: { type: 'string', default: '100000' },
    threads: { type: 'boolean', default: false },
    /** Seconds to wait idle before the idle figure (the learner's and the store's threads settle). */
    settle: { type: 'string', default: '2' },
    /** Seconds to wait after the learning is done before a last figure ("later"; 0: none), e.g. past the learner's idle stop. */
    later: { type: 'string', default: '0' },
    /** Notes of ten facts to learn into the 100k space at the end (0: none), then the first search after them is timed. */
    learn: { type: 'string', default: '0' },
    /** Seconds of /healthz and then of search from `callers` callers at once, for throughput (0: none). */
    throughput: { type: 'string', default: '0' },
    /** Sequential searches measured after the first, and unmeasured ones run before them. */
    searches: { type: 'string', default: '30' },
    warm: { type: 'string', default: '0' },
    callers: { type: 'string', default: '16' },
  },
});
const KEY = 'egk_bench_scale_0123456789abcdefghijklmnop';

const storeEnv = (dataDir: string | undefined): Record<string, string> =>
  values['database-url'] ? { DATABASE_URL: values['database-url'] } : { ENGRAM_DATA_DIR: dataDir! };

if (positionals[0] === 'fill') {
  const size = Number(values.memories);
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_HOST: '127.0.0.1', ENGRAM_BOOTSTRAP_KEY: KEY, ENGRAM_WORKERS: '0', ...storeEnv(positionals[1]) }),
    { announceKey: () => {} },
  );
  const db = server.store.db;
  const scope = { accountId: 1, space: 'scale' };
  await ensureSpace(db, scope);
  for (let start = 0; start < size; start += 1_000) {
    const facts = Array.from({ length: Math.min(1_000, size - start) }, (_, offset) => fact(start + offset));
    await db.transaction().execute(async (transaction) => {
      await sql`
        insert into sources (id, account_id, space, kind, body, status, learned_at)
        values (${`src_fill${start}`}, 1, 'scale', 'note', 'generated', 'finished', now())`.execute(transaction);
      await storeFacts(transaction, scope, `src_fill${start}`, facts);
      await sql`
        update memories set created_at = timestamptz '2025-01-01 00:00:00+00' + id * interval '1 second'
        where account_id = 1 and source_id = ${`src_fill${start}`}`.execute(transaction);
    });
  }
  await sql`analyze`.execute(db);
  await server.close();
  process.exit(0);
}

/**
 * Resident memory from /proc, in MB: the whole, its anonymous and file-backed parts, the peak,
 * and the part that is WebAssembly memory (PGlite's): V8 reserves each WebAssembly memory with
 * gigabytes of inaccessible guard pages after it, so it is the readable mapping just before one.
 */
async function rssOf(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Math.round(Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1_024);
  const mappings: { start: number; end: number; perms: string; rss: number }[] = [];
  for (const line of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
    if (range) mappings.push({ start: Number.parseInt(range[1]!, 16), end: Number.parseInt(range[2]!, 16), perms: range[3]!, rss: 0 });
    else if (line.startsWith('Rss:')) mappings.at(-1)!.rss = Number(line.split(/\s+/)[1]);
  }
  let wasm = 0;
  for (let index = 1; index < mappings.length; index++) {
    const guard = mappings[index]!;
    const memory = mappings[index - 1]!;
    if (guard.perms === '---p' && guard.end - guard.start >= 4 * 2 ** 30 && memory.end === guard.start && memory.perms === 'rw-p')
      wasm += memory.rss;
  }
  return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile'), peak: field('VmHWM'), wasm: Math.round(wasm / 1_024) };
}

const work = values['database-url'] ? undefined : await mkdtemp(join(tmpdir(), 'engram-serve-memory-'));
if (work) await cp(values.store!, work, { recursive: true });
const hook = fileURLToPath(new URL('./thread-memory.mjs', import.meta.url));
const child = spawn(process.execPath, [...(values.threads ? ['--import', hook] : []), resolve(values.cli), 'serve'], {
  env: {
    ...process.env,
    ...storeEnv(work),
    ENGRAM_PORT: '0',
    ENGRAM_HOST: '127.0.0.1',
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_POLL_MS: '20',
    ENGRAM_ACCOUNT_RPM: '1000000',
    ENGRAM_RECALL_CACHE_MEMORIES: '200000',
  },
  stdio: ['ignore', 'ignore', 'pipe'],
});
/** Each thread's last figures (thread-memory.mjs), by thread id. */
const threads = new Map<string, Record<string, unknown>>();
let seen = '';
const url = await new Promise<string>((resolveUrl, reject) => {
  child.stderr!.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    for (let end = seen.indexOf('\n'); end !== -1; end = seen.indexOf('\n')) {
      const line = seen.slice(0, end);
      seen = seen.slice(end + 1);
      if (line.startsWith('thread-memory ')) {
        const figures = JSON.parse(line.slice('thread-memory '.length));
        threads.set(String(figures.thread), figures);
      }
      const match = /listening on (\S+)/.exec(line);
      if (match) resolveUrl(match[1]!);
    }
  });
  child.once('exit', (code) => reject(new Error(`engram serve exited (${code}): ${seen.slice(-500)}`)));
});
const call = async (method: string, path: string, space: string, body?: unknown) => {
  const response = await fetch(url + path, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'X-Memory-Space': space, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
};
const snapshot = () => Object.fromEntries([...threads].map(([id, figures]) => [id, figures]));
const pid = child.pid!;
const report: Record<string, unknown> = { label: values.label, load: (await readFile('/proc/loadavg', 'utf8')).split(' ')[0] };
try {
  await new Promise((done) => setTimeout(done, Number(values.settle) * 1_000));
  report.idle = await rssOf(pid);
  report.idleThreads = snapshot();
  const cpu0 = await cpuSeconds(pid);
  const began = performance.now();
  await call('POST', '/v1/search', 'scale', { q: 'What did they repair?' });
  report.firstSearchMs = Math.round(performance.now() - began);
  // Searches the process has not yet compiled its code for (V8 optimises what runs often) are
  // slower; `--warm N` runs N unmeasured ones first, to give the steady state apart.
  for (let index = 0; index < Number(values.warm); index++) await call('POST', '/v1/search', 'scale', { q: questions()[index % 4] });
  const searches: number[] = [];
  for (let index = 0; index < Number(values.searches); index++) {
    const start = performance.now();
    await call('POST', '/v1/search', 'scale', { q: questions()[index % 4] });
    searches.push(performance.now() - start);
  }
  report.search = percentiles(searches);
  report.afterSearch = await rssOf(pid);
  if (Number(values.throughput) > 0) {
    /** Requests a second from `callers` callers each sending `send` one after another for the given seconds. */
    const rate = async (send: (index: number) => Promise<unknown>) => {
      const until = performance.now() + Number(values.throughput) * 1_000;
      let done = 0;
      const began = performance.now();
      await Promise.all(
        Array.from({ length: Number(values.callers) }, async (_, caller) => {
          for (let index = caller; performance.now() < until; index += 1) {
            await send(index);
            done += 1;
          }
        }),
      );
      return Math.round(done / ((performance.now() - began) / 1_000));
    };
    const bare = await rate(async () => (await fetch(`${url}/healthz`)).text());
    const searched = await rate((index) => call('POST', '/v1/search', 'scale', { q: questions()[index % 4] }));
    report.throughput = { callers: Number(values.callers), bare, search: searched, kept: +(searched / bare).toFixed(3) };
  }
  const cpu1 = await cpuSeconds(pid);
  const saves: number[] = [];
  const loadSearches: number[] = [];
  const loadBegan = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async (_, caller) => {
      for (let index = 0; index < 10; index++) {
        const start = performance.now();
        if (index % 2) {
          await call('POST', '/v1/search', 'scale', { q: questions()[index % 4] });
          loadSearches.push(performance.now() - start);
        } else {
          await call('POST', '/v1/memories', `alone-${caller % 8}`, { text: note(caller * 50 + index) });
          saves.push(performance.now() - start);
        }
      }
    }),
  );
  report.loadSeconds = +((performance.now() - loadBegan) / 1_000).toFixed(2);
  report.loadSearch = percentiles(loadSearches);
  report.loadSave = percentiles(saves);
  report.loaded = await rssOf(pid);
  report.loadedThreads = snapshot();
  // The saves' learning, then quiet.
  for (;;) {
    const sources = await Promise.all(Array.from({ length: 8 }, (_, space) => call('GET', '/v1/sources?limit=200', `alone-${space}`)));
    if (
      !sources.some((page) => page.sources.some((source: { status: string }) => source.status !== 'finished' && source.status !== 'failed'))
    )
      break;
    await new Promise((done) => setTimeout(done, 100));
  }
  report.learned = await rssOf(pid);
  await new Promise((done) => setTimeout(done, 5_000));
  report.quiet = await rssOf(pid);
  report.quietThreads = snapshot();
  if (Number(values.later) > 0) {
    await new Promise((done) => setTimeout(done, Number(values.later) * 1_000));
    report.later = await rssOf(pid);
    report.laterThreads = snapshot();
  }
  if (Number(values.learn) > 0) {
    // Learning into the searched space: the first search after it finds the server's copy of the
    // space's index behind by what was learned, unless the server brought it up to date meanwhile.
    const sourceIds: string[] = [];
    const learnBegan = performance.now();
    for (let start = 0; start < Number(values.learn); start += 100) {
      const items = Array.from({ length: Math.min(100, Number(values.learn) - start) }, (_, index) => ({
        text: note(start + index + 9_000),
      }));
      const answer = await call('POST', '/v1/memories/batch', 'scale', { items });
      for (const item of answer.results) if (item.ok) sourceIds.push(item.source.id);
    }
    for (const id of sourceIds) {
      for (;;) {
        const { source } = await call('GET', `/v1/sources/${id}?wait=20`, 'scale');
        if (source.status === 'finished' || source.status === 'failed') break;
      }
    }
    report.learnSeconds = +((performance.now() - learnBegan) / 1_000).toFixed(1);
    const timedSearch = async () => {
      const start = performance.now();
      await call('POST', '/v1/search', 'scale', { q: 'What did they repair?' });
      return Math.round(performance.now() - start);
    };
    report.firstAfterLearning = await timedSearch();
    report.secondAfterLearning = await timedSearch();
  }
  report.cpuSearch = +(cpu1 - cpu0).toFixed(2);
  report.cpuLoad = +((await cpuSeconds(pid)) - cpu1).toFixed(2);
} finally {
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  if (work) await rm(work, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
// One line to read: RSS (WebAssembly part) at each point, the peak, latencies p50/p95, CPU seconds, and each thread's heap at the end.
const at = (name: string) => {
  const figures = report[name] as { rss: number; wasm: number };
  return `${figures.rss}(${figures.wasm})`;
};
const p = (figures: unknown) => {
  const { p50, p95 } = figures as { p50: number; p95: number };
  return `${p50.toFixed(1)}/${p95.toFixed(1)}`;
};
const heaps = Object.values((report.quietThreads ?? {}) as Record<string, { thread: number; heapTotal: number; heapUsed: number }>)
  .map((thread) => `t${thread.thread} ${thread.heapUsed}/${thread.heapTotal}`)
  .join(', ');
console.error(
  `${values.label}: load ${report.load} RSS idle ${at('idle')} search ${at('afterSearch')} loaded ${at('loaded')} learned ${at('learned')} quiet ${at('quiet')}${report.later ? ` later ${at('later')}` : ''} peak ${(report.quiet as { peak: number }).peak}` +
    ` | search ${p(report.search)} first ${report.firstSearchMs} | 32 callers ${report.loadSeconds}s search ${p(report.loadSearch)} save ${p(report.loadSave)} | cpu ${report.cpuSearch}+${report.cpuLoad}` +
    (report.learnSeconds === undefined
      ? ''
      : ` | learned ${values.learn} notes in ${report.learnSeconds}s, then search ${report.firstAfterLearning} and ${report.secondAfterLearning} ms`) +
    (report.throughput
      ? ` | throughput (${values.callers} callers) /healthz ${(report.throughput as { bare: number }).bare}/s search ${(report.throughput as { search: number }).search}/s kept ${(report.throughput as { kept: number }).kept}`
      : '') +
    (heaps ? ` | heaps used/total ${heaps}` : ''),
);
