/**
 * Scale run: how recall, saves, learning and listings hold up as a space grows, on the
 * embedded store and on PostgreSQL side by side.
 *
 *   npm run bench:scale                                   # both stores, 1k, 10k and 100k memories
 *   npm run bench:scale -- --sizes 1k,10k --stores pglite  # a quick run
 *   npm run bench:scale -- --queries 30 --notes 50 --load-notes 200  # fewer samples (a busy machine)
 *   npm run bench:scale -- --many                         # also 1,000 spaces of 100
 *   npm run bench:scale -- --svg docs/scale.svg           # write the growth plot
 *   npm run bench:scale -- --plot a.json,b.json --svg docs/scale.svg   # the plot from earlier runs' --json
 *   npm run bench:scale -- --sizes 100k --stores postgres --recall-only --profile /tmp/recall.cpuprofile
 *                                    # recall alone, with a CPU profile of its queries (the in-process server's included)
 *   npm run bench:scale -- --sizes 100k --recall-only --results /tmp/before.json   # what each query answered, to compare builds
 *
 * Each store gets a real Engram started in this process on a free port (a fresh data
 * directory, or a fresh PostgreSQL database at ENGRAM_TEST_DATABASE_URL's server). A space is
 * filled to each size with generated facts written through the store's own code (the
 * learner's storeFacts: the same rows and index the learner writes, without learning 100k
 * memories' worth of notes first; creation times fixed by id, so that runs rank alike), and the
 * store's statistics brought up to date as autovacuum would (unless --stale-stats); everything
 * measured goes through HTTP:
 *   - the first search (it reads the store and starts building the server's copy of the index);
 *   - once the copy is built, /v1/search, /v1/context, /v1/ask p50/p95/p99, against two floors: the same full-text
 *     query run directly on the store, and GET /healthz on the same HTTP stack;
 *   - learning: notes of ten facts saved in batches of 100 and learned into the full space;
 *   - saves: sequential p50/p95/p99, and saves/s from 32 callers;
 *   - 32 concurrent callers searching and saving while learning runs;
 *   - listing pages (sources, memories) at the first and the deepest cursor (p95 of 20 requests each);
 *   - the server's own RSS: at each size the in-process server stops and `engram serve` (the
 *     built CLI) is started alone on the same store (with `--serve-env KEY=VALUE` added to its
 *     environment), its RSS read from /proc when idle, after 32 callers searched and saved, and at
 *     its peak; then the in-process server starts again;
 *   - the bench process's RSS (the server measured in it included) and the store's size.
 * The figures go into docs/benchmarks.md ("Scale").
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../../packages/server/dist/config.js';
import { type RunningServer, startServer } from '../../packages/server/dist/server.js';
import type { Db } from '../../packages/server/dist/store/database.js';
import { memoryIndexOf } from '../../packages/server/dist/store/memory-index.js';
import { storeFacts } from '../../packages/server/dist/store/memory-repository.js';
import { ensureSpace } from '../../packages/server/dist/store/source-repository.js';
import { fmt, percentiles, round } from '../common/figures.js';
import { type FreshStore, freshStore } from '../common/fresh-store.js';
import { fact, note, questions } from './generated.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1k,10k,100k' },
    stores: { type: 'string', default: 'pglite,postgres' },
    queries: { type: 'string', default: '150' },
    notes: { type: 'string', default: '300' },
    /** Notes being learned while 32 callers search and save. */
    'load-notes': { type: 'string', default: '1000' },
    many: { type: 'boolean', default: false },
    svg: { type: 'string' },
    json: { type: 'string' },
    /** Draw the SVG (--svg) from the --json files of earlier runs (comma-separated), measuring nothing. */
    plot: { type: 'string' },
    /** Leave the store's statistics as a bulk load leaves them (no analyze after each fill), as before autovacuum runs. */
    'stale-stats': { type: 'boolean', default: false },
    /** Measure recall alone at each size: no learning, listings, server RSS, saves or load. */
    'recall-only': { type: 'boolean', default: false },
    /** Write what each recall query answered (ids and scores) to this file, to compare two builds' rankings. */
    results: { type: 'string' },
    /** Write a CPU profile of the recall queries (this process: the server measured is in it) to this file; one per store and size. */
    profile: { type: 'string' },
    /** Environment for `engram serve` started alone to read its RSS (KEY=VALUE, repeatable), e.g. NODE_OPTIONS=--max-semi-space-size=4. */
    'serve-env': { type: 'string', multiple: true, default: [] },
  },
});
const SIZES = values.sizes.split(',').map((size) => Number(size.replace(/k$/i, '000')));
const STORES = values.stores.split(',') as ('pglite' | 'postgres')[];
const QUERIES = Number(values.queries);
const NOTES = Number(values.notes);
const LOAD_NOTES = Number(values['load-notes']);
const RECALL_ONLY = values['recall-only'];
const KEY = 'egk_bench_scale_0123456789abcdefghijklmnop';
const SERVE_ENV = Object.fromEntries(
  values['serve-env'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
);

// ---- measuring ----------------------------------------------------------------------------

interface Engram {
  kind: 'pglite' | 'postgres';
  server: RunningServer;
  db: Db;
  /** The server's environment (its store), to start it again or alone. */
  env: Record<string, string>;
  store: FreshStore;
}

async function startEngram(kind: 'pglite' | 'postgres'): Promise<Engram> {
  const env: Record<string, string> = {
    ENGRAM_PORT: '0',
    ENGRAM_HOST: '127.0.0.1',
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_ACCOUNT_RPM: '1000000',
    ENGRAM_POLL_MS: '20',
    // Room for the copy of a space of 100k memories and what is learned into it.
    ENGRAM_RECALL_CACHE_MEMORIES: '200000',
  };
  const store = await freshStore(kind, 'scale');
  Object.assign(env, store.env);
  const server = await startServer(loadConfig(env), { announceKey: () => {} });
  return { kind, server, db: server.store.db, env, store };
}

/** A process's resident memory now and at its peak (Linux /proc), in MB; NaN elsewhere. */
async function rssOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1_024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/**
 * The server's own RSS, apart from this process: the in-process server stops, `engram serve`
 * starts alone on the same store (its learner threads included), and its RSS is read idle, after
 * 32 callers searched `space` and saved into other spaces, and at its peak. The in-process server
 * then starts again on the store.
 */
async function serverAlone(engram: Engram, space: string): Promise<{ idleMb: number; loadedMb: number; peakMb: number }> {
  await engram.server.close();
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../packages/server/dist/cli.js', import.meta.url)), 'serve'], {
    env: { ...process.env, ...engram.env, ENGRAM_PORT: '0', ...SERVE_ENV },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /listening on (\S+)/.exec(seen);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`engram serve exited (${code}): ${seen.slice(-500)}`)));
    });
    const alone = { ...engram, server: { url } as RunningServer };
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = await rssOf(child.pid!);
    await Promise.all(
      Array.from({ length: 32 }, async (_, caller) => {
        for (let index = 0; index < 10; index++) {
          if (index % 2) await call(alone, 'POST', '/v1/search', space, { q: questions()[index % 4] });
          else await call(alone, 'POST', '/v1/memories', `${space}-alone-${caller % 8}`, { text: note(caller * 50 + index) });
        }
      }),
    );
    const loaded = await rssOf(child.pid!);
    return { idleMb: idle.rss, loadedMb: loaded.rss, peakMb: loaded.peak };
  } finally {
    child.kill('SIGTERM');
    await exited;
    engram.server = await startServer(loadConfig(engram.env), { announceKey: () => {} });
    engram.db = engram.server.store.db;
    // What the callers saved is learned now, before the next size is measured on this server.
    for (let caller = 0; caller < 8; caller++) await waitLearned(engram, `${space}-alone-${caller}`);
  }
}

async function stopEngram(engram: Engram): Promise<void> {
  await engram.server.close();
  await engram.store.remove();
}

async function call(engram: Engram, method: string, path: string, space: string, body?: unknown): Promise<{ status: number; json: any }> {
  try {
    return await callOnce(engram, method, path, space, body);
  } catch (error) {
    // A kept-alive connection the server closed after a long fill: once more, on a new one.
    if (!(error instanceof TypeError)) throw error;
    return callOnce(engram, method, path, space, body);
  }
}

async function callOnce(
  engram: Engram,
  method: string,
  path: string,
  space: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${engram.server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'X-Memory-Space': space, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 300)}`);
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await run();
  return performance.now() - began;
}

/** Fills a space to `size` current memories with generated facts, in transactions of 1,000. */
async function fill(engram: Engram, space: string, from: number, size: number): Promise<void> {
  const scope = { accountId: 1, space };
  await ensureSpace(engram.db, scope);
  for (let start = from; start < size; start += 1_000) {
    const sourceId = `src_scale${space.replace(/\W/g, '')}${start}`;
    const facts = Array.from({ length: Math.min(1_000, size - start) }, (_, index) => fact(start + index));
    await engram.db.transaction().execute(async (transaction) => {
      await sql`
        insert into sources (id, account_id, space, kind, body, status, learned_at)
        values (${sourceId}, 1, ${space}, 'note', 'generated', 'finished', now())`.execute(transaction);
      await storeFacts(transaction, scope, sourceId, facts);
      // Creation times fixed by id (recency weighs them), so that two runs rank alike (--results).
      await sql`
        update memories set created_at = timestamptz '2025-01-01 00:00:00+00' + id * interval '1 second'
        where account_id = 1 and source_id = ${sourceId}`.execute(transaction);
    });
  }
}

async function waitLearned(engram: Engram, space: string): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from jobs where account_id = 1 and space = ${space}`.execute(engram.db);
    if (rows[0]!.waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the in-process server holds a current copy of the space's index (see store/memory-index.ts). */
async function copyBuilt(engram: Engram, space: string): Promise<void> {
  for (const began = Date.now(); Date.now() - began < 120_000; ) {
    const { rows } = await sql<{ version: string }>`
      select memories_version::text as version from spaces where account_id = 1 and name = ${space}`.execute(engram.db);
    if (await memoryIndexOf(engram.db).current(engram.db, { accountId: 1, space }, rows[0]!.version)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function currentMemories(engram: Engram, space: string): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*)::int as count from memories where account_id = 1 and space = ${space} and status = 'current'`.execute(engram.db);
  return rows[0]!.count;
}

interface SizeFigures {
  size: number;
  /** This process's CPU per call (the server and its caller), by path. */
  cpu: Record<string, ReturnType<typeof percentiles>>;
  search: ReturnType<typeof percentiles>;
  context: ReturnType<typeof percentiles>;
  ask: ReturnType<typeof percentiles>;
  direct: ReturnType<typeof percentiles>;
  bare: ReturnType<typeof percentiles>;
  firstSearchMs: number;
  learning: { notesPerSecond: number; memoriesPerSecond: number };
  listing: { sourcesFirst: number; sourcesDeep: number; memoriesFirst: number; memoriesDeep: number };
  storeMb: number;
  /** The bench process (the in-process server included). */
  rssMb: number;
  /** `engram serve` alone on the same store. */
  server: { idleMb: number; loadedMb: number; peakMb: number };
}

async function recallFigures(engram: Engram, space: string) {
  const search: number[] = [];
  const context: number[] = [];
  const ask: number[] = [];
  const direct: number[] = [];
  const bare: number[] = [];
  const answered: unknown[] = [];
  /** CPU milliseconds of this process (the server and its caller) per call, by path: less swayed by a busy machine than wall time. */
  const cpu: Record<string, number[]> = {};
  /** Times one call, keeping what it answered (ids and scores) for --results. */
  const answer = async (path: string, body: Record<string, unknown>) => {
    let json: any;
    const before = process.cpuUsage();
    const ms = await timed(async () => {
      json = (await call(engram, 'POST', path, space, body)).json;
    });
    const used = process.cpuUsage(before);
    (cpu[path] ??= []).push((used.user + used.system) / 1_000);
    const memories = (json.memories ?? json.results ?? []) as { id: string; score?: number }[];
    answered.push({ path, body, total: json.total, ids: memories.map((memory) => [memory.id, memory.score]) });
    return ms;
  };
  for (let index = 0; index < QUERIES; index++) {
    const question = questions()[index % 4]!;
    search.push(await answer('/v1/search', { q: question, limit: 10 }));
    context.push(await answer('/v1/context', { question }));
    ask.push(await answer('/v1/ask', { question }));
    // The floor: the question's words as one full-text query, run on the store directly.
    const words = question.replace(/[?]/g, '').split(' ').join(' | ');
    direct.push(
      await timed(() =>
        sql`
          select m.id from memories m, to_tsquery('english', ${words}) query
          where m.account_id = 1 and m.space = ${space} and m.status = 'current' and m.tsv @@ query
          order by ts_rank_cd(m.tsv, query) desc limit 10`.execute(engram.db),
      ),
    );
    bare.push(
      await timed(async () => {
        const response = await fetch(`${engram.server.url}/healthz`);
        await response.text();
      }),
    );
  }
  if (values.results)
    await writeFile(
      values.results.replace(/(\.json)?$/, `-${engram.kind}-${await currentMemories(engram, space)}.json`),
      JSON.stringify(answered, null, 1),
    );
  return {
    cpu: Object.fromEntries(Object.entries(cpu).map(([path, samples]) => [path, percentiles(samples)])),
    search: percentiles(search),
    context: percentiles(context),
    ask: percentiles(ask),
    direct: percentiles(direct),
    bare: percentiles(bare),
  };
}

/**
 * Runs `measure` under the inspector's CPU profiler when --profile is given, writing the profile
 * (for Chrome's DevTools or speedscope) next to the file named, one per store and size.
 */
async function profiled<T>(label: string, measure: () => Promise<T>): Promise<T> {
  if (!values.profile) return measure();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await measure();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const file = values.profile.replace(/(\.cpuprofile)?$/, `-${label}.cpuprofile`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(profile));
    process.stderr.write(`profile: ${file}\n`);
    session.disconnect();
  }
}

async function learningFigures(engram: Engram, space: string) {
  const before = await currentMemories(engram, space);
  const began = performance.now();
  for (let start = 0; start < NOTES; start += 100) {
    const items = Array.from({ length: Math.min(100, NOTES - start) }, (_, index) => ({ text: note(start + index + 5_000) }));
    await call(engram, 'POST', '/v1/memories/batch', space, { items });
  }
  await waitLearned(engram, space);
  const seconds = (performance.now() - began) / 1_000;
  const learned = (await currentMemories(engram, space)) - before;
  return { notesPerSecond: NOTES / seconds, memoriesPerSecond: learned / seconds };
}

/** Requests timed of each listing page (the first, the deepest): one request alone says little on a shared machine. */
const LISTING_SAMPLES = 20;

async function listingFigures(engram: Engram, space: string) {
  const p95Of = async (path: string) => {
    const samples: number[] = [];
    for (let index = 0; index < LISTING_SAMPLES; index++) samples.push(await timed(() => call(engram, 'GET', path, space)));
    return percentiles(samples).p95;
  };
  // The deepest page's cursor, walked to by `next`; then that page is timed as the first one is.
  const deepest = async (path: string, key: string) => {
    let cursor: number | undefined = 0;
    let last = 0;
    let pages = 0;
    while (cursor !== undefined && pages < 2_000) {
      const { json } = await call(engram, 'GET', `${path}?limit=200&cursor=${cursor}`, space);
      if (!json[key].length) break;
      last = cursor;
      cursor = json.next;
      pages += 1;
    }
    return p95Of(`${path}?limit=200&cursor=${last}`);
  };
  return {
    sourcesFirst: await p95Of('/v1/sources?limit=100'),
    sourcesDeep: await deepest('/v1/sources', 'sources'),
    memoriesFirst: await p95Of('/v1/memories?limit=100'),
    memoriesDeep: await deepest('/v1/memories', 'memories'),
  };
}

async function storeMb(engram: Engram): Promise<number> {
  const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database())::bigint as bytes`.execute(engram.db);
  return rows[0]!.bytes / 1_048_576;
}

async function saveFigures(engram: Engram, space: string) {
  const latencies: number[] = [];
  for (let index = 0; index < 200; index++) {
    latencies.push(await timed(() => call(engram, 'POST', '/v1/memories', space, { text: note(index + 90_000) })));
  }
  const began = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: 32 }, async (_, caller) => {
      for (let index = 0; index < 30; index++) {
        await call(engram, 'POST', '/v1/memories', `${space}-${caller}`, { text: note(index) });
        done += 1;
      }
    }),
  );
  return { sequential: percentiles(latencies), perSecond: done / ((performance.now() - began) / 1_000) };
}

/** 32 callers searching and saving into 50 spaces while a batch of notes is being learned. */
async function underLoad(engram: Engram, space: string) {
  for (let start = 0; start < LOAD_NOTES; start += 100) {
    const items = Array.from({ length: Math.min(100, LOAD_NOTES - start) }, (_, index) => ({ text: note(start + index + 20_000) }));
    await call(engram, 'POST', '/v1/memories/batch', `${space}-learning`, { items });
  }
  const recall: number[] = [];
  const saves: number[] = [];
  let learning = true;
  const learned = waitLearned(engram, `${space}-learning`).then(() => {
    learning = false;
  });
  const began = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async (_, caller) => {
      for (let index = 0; index < 25 && (learning || index < 5); index++) {
        const target = `${space}-load-${(caller + index) % 50}`;
        if (index % 2) recall.push(await timed(() => call(engram, 'POST', '/v1/search', space, { q: questions()[index % 4] })));
        else saves.push(await timed(() => call(engram, 'POST', '/v1/memories', target, { text: note(caller * 100 + index) })));
      }
    }),
  );
  const seconds = (performance.now() - began) / 1_000;
  const stillLearning = learning;
  await learned;
  return { recall: percentiles(recall), saves: percentiles(saves), seconds, stillLearning };
}

// ---- the run ------------------------------------------------------------------------------
const results: Record<string, { sizes: SizeFigures[]; extra: Record<string, unknown> }> = {};
if (values.plot) {
  const { readFile } = await import('node:fs/promises');
  for (const file of values.plot.split(',')) Object.assign(results, JSON.parse(await readFile(file, 'utf8')));
  if (values.svg) await writeFile(values.svg, plot(results));
  process.exit(0);
}
console.log(`# Engram scale run (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}; ${QUERIES} queries a figure, ms)`);
for (const kind of STORES) {
  const engram = await startEngram(kind);
  const figures: SizeFigures[] = [];
  const extra: Record<string, unknown> = {};
  results[kind] = { sizes: figures, extra };
  try {
    let filled = 0;
    for (const size of SIZES) {
      process.stderr.write(`[${kind}] filling to ${size}…\n`);
      await fill(engram, 'scale', filled, size);
      // The statistics the server's statistics job (or PostgreSQL's autovacuum) gives the planner
      // within a minute of a burst of writes; measured at once, it would take the space for empty
      // (--stale-stats measures that minute).
      if (!values['stale-stats']) await sql`analyze`.execute(engram.db);
      filled = size;
      const firstSearchMs = await timed(() => call(engram, 'POST', '/v1/search', 'scale', { q: 'What did they repair?' }));
      // The first search reads the store and starts building the server's copy of the space's
      // index; recall is measured once the copy is built, as it runs from then on.
      await copyBuilt(engram, 'scale');
      const recall = await profiled(`${kind}-${size}`, () => recallFigures(engram, 'scale'));
      process.stderr.write(
        `[${kind}] ${size}: search ${fmt(recall.search)}; context ${fmt(recall.context)}; ask ${fmt(recall.ask)}; direct ${fmt(recall.direct)}; ` +
          `CPU ms a call ${Object.entries(recall.cpu)
            .map(([path, figures]) => `${path} ${fmt(figures)}`)
            .join(', ')}\n`,
      );
      const none = { notesPerSecond: Number.NaN, memoriesPerSecond: Number.NaN };
      const learning = RECALL_ONLY ? none : await learningFigures(engram, 'scale');
      const listing = RECALL_ONLY
        ? { sourcesFirst: Number.NaN, sourcesDeep: Number.NaN, memoriesFirst: Number.NaN, memoriesDeep: Number.NaN }
        : await listingFigures(engram, 'scale');
      const server = RECALL_ONLY ? { idleMb: Number.NaN, loadedMb: Number.NaN, peakMb: Number.NaN } : await serverAlone(engram, 'scale');
      figures.push({
        size,
        ...recall,
        firstSearchMs,
        learning,
        listing,
        storeMb: await storeMb(engram),
        rssMb: process.memoryUsage().rss / 1_048_576,
        server,
      });
      filled = await currentMemories(engram, 'scale');
      // Each size's figures as soon as they are measured, in case a long run is cut short.
      process.stderr.write(`[${kind}] ${JSON.stringify(figures.at(-1))}\n`);
    }
    if (!RECALL_ONLY) {
      extra.saves = await saveFigures(engram, 'saves');
      process.stderr.write(`[${kind}] saves ${JSON.stringify(extra.saves)}\n`);
      extra.underLoad = await underLoad(engram, 'load');
      process.stderr.write(`[${kind}] under load ${JSON.stringify(extra.underLoad)}\n`);
    }
    if (values.many) {
      process.stderr.write(`[${kind}] filling 1,000 spaces of 100…\n`);
      for (let index = 0; index < 1_000; index++) await fill(engram, `many-${index}`, 0, 100);
      await sql`analyze`.execute(engram.db);
      const samples: number[] = [];
      for (let index = 0; index < QUERIES; index++) {
        samples.push(await timed(() => call(engram, 'POST', '/v1/search', `many-${index % 1_000}`, { q: questions()[index % 4] })));
      }
      extra.manySpaces = percentiles(samples);
    }
    extra.rssEndMb = process.memoryUsage().rss / 1_048_576;
    if (values.json) await writeFile(values.json, JSON.stringify(results, null, 2));
  } finally {
    await stopEngram(engram);
  }
}

// ---- the report ---------------------------------------------------------------------------
const header = ['memories', ...STORES.flatMap((kind) => [`search ${kind}`, `direct ${kind}`, `x direct`, `x bare`])];
console.log(`\n## Recall: p50 / p95 / p99 (ms)\n\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const [index, size] of SIZES.entries()) {
  const cells = STORES.flatMap((kind) => {
    const row = results[kind]!.sizes[index]!;
    return [fmt(row.search), fmt(row.direct), `${round(row.search.p95 / row.direct.p95)}x`, `${round(row.search.p95 / row.bare.p95)}x`];
  });
  console.log(`| ${size.toLocaleString('en')} | ${cells.join(' | ')} |`);
}
console.log(`\n| memories | ${STORES.flatMap((kind) => [`context ${kind}`, `ask ${kind}`, `first search ${kind}`]).join(' | ')} |`);
console.log(`|---|${STORES.flatMap(() => ['---', '---', '---']).join('|')}|`);
for (const [index, size] of SIZES.entries()) {
  const cells = STORES.flatMap((kind) => {
    const row = results[kind]!.sizes[index]!;
    return [fmt(row.context), fmt(row.ask), `${round(row.firstSearchMs)}`];
  });
  console.log(`| ${size.toLocaleString('en')} | ${cells.join(' | ')} |`);
}
console.log(
  `\n## Growth\n\n| memories | ${STORES.flatMap((kind) => [`notes/s ${kind}`, `memories/s ${kind}`, `store MB ${kind}`, `server RSS MB idle/loaded/peak ${kind}`, `bench RSS MB ${kind}`, `listing p95 first/deepest ${kind}`]).join(' | ')} |`,
);
console.log(`|---|${STORES.flatMap(() => ['---', '---', '---', '---', '---', '---']).join('|')}|`);
for (const [index, size] of SIZES.entries()) {
  const cells = STORES.flatMap((kind) => {
    const row = results[kind]!.sizes[index]!;
    return [
      round(row.learning.notesPerSecond),
      round(row.learning.memoriesPerSecond),
      round(row.storeMb),
      `${round(row.server.idleMb)}/${round(row.server.loadedMb)}/${round(row.server.peakMb)}`,
      round(row.rssMb),
      `sources ${round(row.listing.sourcesFirst)}/${round(row.listing.sourcesDeep)}, memories ${round(row.listing.memoriesFirst)}/${round(row.listing.memoriesDeep)}`,
    ];
  });
  console.log(`| ${size.toLocaleString('en')} | ${cells.join(' | ')} |`);
}
console.log('\n## Saves and load');
for (const kind of STORES) {
  const extra = results[kind]!.extra as any;
  if (!extra.saves) continue;
  console.log(
    `- ${kind}: save p50/p95/p99 ${fmt(extra.saves.sequential)} ms, ${round(extra.saves.perSecond)} saves/s from 32 callers; ` +
      `32 callers while learning: search ${fmt(extra.underLoad.recall)}, save ${fmt(extra.underLoad.saves)} ms` +
      `${extra.manySpaces ? `; 1,000 spaces of 100: search ${fmt(extra.manySpaces)}` : ''}; bench process RSS at the end ${round(extra.rssEndMb)} MB`,
  );
}
if (values.json) await writeFile(values.json, JSON.stringify(results, null, 2));
if (values.svg) await writeFile(values.svg, plot(results));

/** A small line plot of search p95 and learning speed against memories, per store. */
function plot(data: typeof results): string {
  const width = 640;
  const height = 300;
  const left = 60;
  const bottom = 40;
  const panels = [
    { title: 'search p95 (ms)', value: (row: SizeFigures) => row.search.p95 },
    { title: 'learning (memories/s)', value: (row: SizeFigures) => row.learning.memoriesPerSecond },
  ];
  const colours: Record<string, string> = { pglite: '#1f77b4', postgres: '#d62728' };
  const x = (size: number) => left + ((Math.log10(size) - 3) / 2) * (width / 2 - left - 20);
  let body = '';
  panels.forEach((panel, index) => {
    const offset = index * (width / 2);
    const max = Math.max(1, ...Object.values(data).flatMap((store) => store.sizes.map(panel.value))) * 1.1;
    const y = (value: number) => height - bottom - (value / max) * (height - bottom - 30);
    body += `<text x="${offset + width / 4}" y="18" text-anchor="middle" font-size="13">${panel.title}</text>`;
    body += `<line x1="${offset + left}" y1="${height - bottom}" x2="${offset + width / 2 - 20}" y2="${height - bottom}" stroke="#333"/>`;
    body += `<line x1="${offset + left}" y1="30" x2="${offset + left}" y2="${height - bottom}" stroke="#333"/>`;
    for (const size of [1_000, 10_000, 100_000]) {
      body += `<text x="${offset + x(size)}" y="${height - bottom + 16}" text-anchor="middle" font-size="11">${size / 1_000}k</text>`;
    }
    for (const share of [0, 0.5, 1]) {
      body += `<text x="${offset + left - 6}" y="${y((share * max) / 1.1) + 4}" text-anchor="end" font-size="11">${round((share * max) / 1.1)}</text>`;
    }
    for (const [kind, store] of Object.entries(data)) {
      const points = store.sizes.map((row) => `${offset + x(row.size)},${y(panel.value(row))}`).join(' ');
      body += `<polyline fill="none" stroke="${colours[kind]}" stroke-width="2" points="${points}"/>`;
      for (const row of store.sizes) {
        body += `<circle cx="${offset + x(row.size)}" cy="${y(panel.value(row))}" r="3" fill="${colours[kind]}"/>`;
      }
    }
  });
  const legend = Object.keys(data)
    .map(
      (kind, index) =>
        `<text x="${left + index * 120}" y="${height - 6}" font-size="12" fill="${colours[kind]}">■ ${kind === 'pglite' ? 'embedded' : 'PostgreSQL'}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">${body}${legend}</svg>\n`;
}
