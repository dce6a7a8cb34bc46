/**
 * An API-only process and a worker process on one PostgreSQL (`engram serve --no-workers` and
 * `engram worker`, both from a built CLI), as a cluster runs them: what the signals between them
 * (LISTEN/NOTIFY, store/signals.ts) change. Two figures, each with ENGRAM_PG_NOTIFY on (the
 * default) and =0 (as before the signals):
 *
 * - the first search after the worker learned `--learn` notes into a space of 100k memories the
 *   API process holds a copy of: without signals the copy catches up at that search, with them
 *   it caught up while the worker learned;
 * - save to learned: `--saves` single notes saved one by one (a random pause of up to 600 ms before
 *   each, so that saves fall anywhere in the worker's poll), each timed from its save's commit to its
 *   learning's (the store's `created_at` and `learned_at`): without signals the worker finds the job
 *   at its next poll (ENGRAM_POLL_MS, 500 by default), with them at once.
 *
 * Each run copies the filled database (`--template`, made with `serve-memory.ts fill`) to a fresh
 * one and drops it after:
 *
 *   npm run build
 *   psql postgres://postgres@127.0.0.1:5432/test -c 'create database engram_bench_split'
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/serve-memory.ts fill \
 *     --database-url postgres://postgres@127.0.0.1:5432/engram_bench_split
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/split-notify.ts --template engram_bench_split --label new
 *   ENGRAM_PG_NOTIFY=0 TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/split-notify.ts --template engram_bench_split --label old
 *
 * Extra environment (`ENGRAM_…`) passes through to both processes.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { percentiles } from '../common/figures.js';
import { cpuSeconds } from '../common/process-cpu.js';
import { note, questions } from './generated.js';

const { values } = parseArgs({
  options: {
    cli: { type: 'string', default: 'packages/server/dist/cli.js' },
    'admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    template: { type: 'string', default: 'engram_bench_split' },
    label: { type: 'string', default: '' },
    /** Notes of ten facts the worker learns into the held 100k space before the timed search. */
    learn: { type: 'string', default: '500' },
    /** Milliseconds between the last note learned and the timed search. */
    pause: { type: 'string', default: '1000' },
    /** Single saves timed from commit to learned. */
    saves: { type: 'string', default: '40' },
  },
});
const KEY = 'egk_bench_scale_0123456789abcdefghijklmnop';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const admin = new pg.Client({ connectionString: values['admin-url'] });
await admin.connect();
const name = `engram_bench_split_${process.pid}`;
await admin.query(`create database ${name} template ${values.template}`);
const databaseUrl = new URL(values['admin-url']);
databaseUrl.pathname = `/${name}`;
const db = new pg.Client({ connectionString: databaseUrl.toString() });
await db.connect();

const children: ChildProcess[] = [];
/** Starts the CLI with `args` and resolves with the first stderr line matching `ready`. */
function start(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [resolve(values.cli), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl.toString(), ENGRAM_BOOTSTRAP_KEY: KEY, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let seen = '';
  return new Promise((resolveStart, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) resolveStart({ child, match });
    });
    child.once('exit', (code) => reject(new Error(`engram ${args[0]} exited (${code}): ${seen.slice(-500)}`)));
  });
}

const report: Record<string, unknown> = { label: values.label, notify: process.env.ENGRAM_PG_NOTIFY ?? '1' };
try {
  const api = await start(
    ['serve', '--no-workers'],
    { ENGRAM_PORT: '0', ENGRAM_HOST: '127.0.0.1', ENGRAM_ACCOUNT_RPM: '1000000', ENGRAM_RECALL_CACHE_MEMORIES: '200000' },
    /listening on (\S+)/,
  );
  const url = api.match[1]!;
  await start(['worker'], {}, /Engram workers running/);
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
  const learned = async (ids: string[], space: string) => {
    for (const id of ids) {
      for (;;) {
        const { source } = await call('GET', `/v1/sources/${id}?wait=20`, space);
        if (source.status === 'finished' || source.status === 'failed') break;
      }
    }
  };
  const timedSearch = async () => {
    const began = performance.now();
    await call('POST', '/v1/search', 'scale', { q: 'What did they repair?' });
    return Math.round(performance.now() - began);
  };
  // The API process's copy of the 100k space.
  report.firstSearchMs = await timedSearch();
  for (let index = 0; index < 10; index++) await call('POST', '/v1/search', 'scale', { q: questions()[index % 4] });

  const apiCpu = await cpuSeconds(api.child.pid!);
  const learnBegan = performance.now();
  const ids: string[] = [];
  for (let start = 0; start < Number(values.learn); start += 100) {
    const items = Array.from({ length: Math.min(100, Number(values.learn) - start) }, (_, index) => ({
      text: note(start + index + 9_000),
    }));
    const answer = await call('POST', '/v1/memories/batch', 'scale', { items });
    for (const item of answer.results) if (item.ok) ids.push(item.source.id);
  }
  await learned(ids, 'scale');
  report.learnSeconds = +((performance.now() - learnBegan) / 1_000).toFixed(1);
  report.apiCpuWhileLearning = +((await cpuSeconds(api.child.pid!)) - apiCpu).toFixed(2);
  await sleep(Number(values.pause));
  report.firstAfterLearning = await timedSearch();
  report.secondAfterLearning = await timedSearch();

  const saved: string[] = [];
  for (let index = 0; index < Number(values.saves); index++) {
    await sleep(Math.random() * 600);
    const { source } = await call('POST', '/v1/memories', 'latency', { text: `Saved note number ${index}: ${note(index + 20_000)}` });
    saved.push(source.id);
    await learned([source.id], 'latency');
  }
  const { rows } = await db.query<{ ms: number }>(
    `select extract(epoch from learned_at - created_at) * 1000 as ms from sources where account_id = 1 and id = any($1)`,
    [saved],
  );
  const latency = percentiles(rows.map((row) => Number(row.ms)));
  if (rows.length)
    report.saveToLearnedMs = {
      p50: Math.round(latency.p50),
      p95: Math.round(latency.p95),
      max: Math.round(Math.max(...rows.map((row) => Number(row.ms)))),
    };
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((done) => child.once('exit', done)) : null)));
  await db.end();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
console.log(JSON.stringify(report));
