/**
 * Exporting a large space over HTTP streams in constant memory: builds two spaces (a quarter
 * of BENCH_MEMORIES and BENCH_MEMORIES memories, written in bulk through the repository rather
 * than learned), starts `engram serve` as a process of its own on that store, exports each space
 * with GET /v1/export and samples the server's resident memory (RSS) throughout.
 *
 *   npm run build && npx tsx bench/export/run.ts       (PGlite in a temporary data dir)
 *   DATABASE_URL=postgres://… npx tsx bench/export/run.ts
 *   BENCH_MEMORIES=20000 npx tsx bench/export/run.ts   (a quick run)
 *   BENCH_ACCOUNT=ID …      export the spaces an earlier run built for account ID (DATABASE_URL only)
 *   BENCH_SERVER_HEAP_MB=N  run the server with V8's old space capped at N MB: an export that held
 *                           the space in memory would fail; one that streams runs as before
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { indexDocumentOf } from '../../packages/server/src/operations/index-document.js';
import { createAccount, createAccountKey } from '../../packages/server/src/store/account-repository.js';
import type { Db } from '../../packages/server/src/store/database.js';
import { openStore } from '../../packages/server/src/store/database.js';
import type { FactToStore } from '../../packages/server/src/store/memory-repository.js';
import { storeFacts } from '../../packages/server/src/store/memory-repository.js';
import { migrate } from '../../packages/server/src/store/migrations.js';
import type { Scope } from '../../packages/server/src/store/scope.js';
import { ensureSpace } from '../../packages/server/src/store/source-repository.js';

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 100_000);
const PER_SOURCE = 1_000;
const KEY = 'egk_bench_export_0123456789abcdefghijklmnop';
const cli = fileURLToPath(new URL('../../packages/server/dist/cli.js', import.meta.url));

const names = ['Lena', 'Tomas', 'Priya', 'Omar', 'Ines', 'Sven', 'Mia', 'Ravi', 'Zoe', 'Nadia', 'Amir', 'Cleo'];
const places = ['Bergen', 'Porto', 'Leeds', 'Lisbon', 'Dublin', 'Kyoto', 'Quito', 'Oslo', 'Accra', 'Lyon'];
const things = ['a kayak', 'three goats', 'a blue tram', 'a red scooter', 'a cello', 'an old camera', 'a bakery', 'a garden'];

/** A plain fact; `seed` makes each one different. */
function sentence(seed: number): { text: string; about: string[] } {
  const name = `${names[seed % names.length]} ${String.fromCharCode(65 + (seed % 26))}${seed}`;
  const place = places[(seed >> 2) % places.length]!;
  const patterns = [
    `${name} lives in ${place}.`,
    `${name} owns ${things[seed % things.length]} and keeps it near ${place}.`,
    `${name} works at the ${place} office on project ${seed}.`,
    `${name} plays chess every ${['Monday', 'Tuesday', 'Friday'][seed % 3]} with friends from ${place}.`,
  ];
  return { text: patterns[seed % patterns.length]!, about: [name, place] };
}

/** Writes `count` memories into the space, PER_SOURCE to a finished source, through storeFacts. */
async function buildSpace(db: Db, scope: Scope, count: number, offset: number): Promise<void> {
  await ensureSpace(db, scope);
  for (let start = 0; start < count; start += PER_SOURCE) {
    const facts: FactToStore[] = [];
    let body = '';
    for (let index = start; index < Math.min(count, start + PER_SOURCE); index++) {
      const { text, about } = sentence(offset + index);
      facts.push({
        text,
        kind: index % 3 === 0 ? 'people' : 'detail',
        about,
        date: '2026-11-20',
        fingerprint: text.toLowerCase().replace(/[^a-z0-9 ]/g, ''),
        sentence: { text, messageIndex: null, start: body.length, end: body.length + text.length },
        index: indexDocumentOf(text, about),
      });
      body += `${text} `;
    }
    const sourceId = `src_bench${scope.space}${String(start).padStart(8, '0')}`;
    await db.transaction().execute(async (transaction) => {
      await sql`
        insert into sources (id, account_id, space, kind, title, status, body, tokens, learned_at)
        values (${sourceId}, ${scope.accountId}, ${scope.space}, 'note', ${`Batch ${start}`}, 'finished', ${body}, ${facts.length * 12}, now())`.execute(
        transaction,
      );
      await storeFacts(transaction, scope, sourceId, facts);
    });
    process.stderr.write(`\r${scope.space}: ${Math.min(count, start + PER_SOURCE)} / ${count} memories`);
  }
  process.stderr.write('\n');
}

/** Resident memory of a process, in MB. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const found = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!found) throw new Error(`process ${pid} has stopped`);
  return Number(found[1]) / 1024;
}

async function main(): Promise<void> {
  const dataDir = process.env.DATABASE_URL ? null : await mkdtemp(join(tmpdir(), 'engram-bench-export-'));
  const config = { databaseUrl: process.env.DATABASE_URL ?? null, dataDir: dataDir ?? '' };
  const small = Math.round(MEMORIES / 4);
  let built = Date.now();
  if (!process.env.BENCH_ACCOUNT) {
    const store = await openStore(config);
    await migrate(store.db);
    const account = await createAccount(store.db, `bench-export-${Date.now()}`);
    await createAccountKey(store.db, account.id, { key: `${KEY}${account.id}` });
    await buildSpace(store.db, { accountId: account.id, space: 'small' }, small, 0);
    await buildSpace(store.db, { accountId: account.id, space: 'large' }, MEMORIES, small);
    await store.close();
    process.env.BENCH_ACCOUNT = String(account.id);
  }
  built = Date.now() - built;
  const key = `${KEY}${process.env.BENCH_ACCOUNT}`;

  const heap = process.env.BENCH_SERVER_HEAP_MB ? [`--max-old-space-size=${process.env.BENCH_SERVER_HEAP_MB}`] : [];
  const server = spawn(process.execPath, [...heap, cli, 'serve'], {
    env: {
      ...process.env,
      ENGRAM_PORT: '0',
      ENGRAM_WORKERS: '0',
      ...(dataDir ? { ENGRAM_DATA_DIR: dataDir } : {}),
      ENGRAM_ACCOUNT_RPM: '100000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  server.stderr!.on('data', (chunk) => {
    text = (text + chunk).slice(-20_000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr!.on('data', () => {
      const found = /listening on (http:\/\/\S+)/.exec(text);
      if (found) resolve(found[1]!);
    });
    server.on('exit', (code) => reject(new Error(`the server stopped (${code}): ${text}`)));
  });

  const samples: number[] = [];
  const sampler = setInterval(() => {
    if (server.exitCode === null && server.signalCode === null) samples.push(rssOf(server.pid!));
  }, 25);
  server.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`the server stopped (${code ?? signal}):\n${text}`);
  });
  const exportSpace = async (space: string) => {
    const started = Date.now();
    const response = await fetch(`${url}/v1/export?space=${space}`, { headers: { Authorization: `Bearer ${key}` } });
    if (response.status !== 200) throw new Error(`export ${space}: ${response.status} ${await response.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    return { space, bytes, lines, seconds: (Date.now() - started) / 1000 };
  };
  try {
    // Warm up the code paths of an export on the account's own (empty) memory.
    await exportSpace('');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    samples.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const baseline = Math.max(...samples);
    const results = [];
    for (const space of ['small', 'large']) {
      samples.length = 0;
      const result = await exportSpace(space);
      results.push({ ...result, peak: Math.max(...samples), mean: samples.reduce((sum, value) => sum + value, 0) / samples.length });
    }
    console.log(
      `store: ${dataDir ? 'PGlite' : 'PostgreSQL'}; built ${small + MEMORIES} memories in ${(built / 1000).toFixed(0)} s; server heap cap ${heap[0] ?? 'none'}`,
    );
    console.log(`server RSS before exporting (after one warm-up export): ${baseline.toFixed(0)} MB`);
    for (const result of results) {
      console.log(
        `${result.space === 'small' ? small : MEMORIES} memories (${result.space}): ${result.lines} lines, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s ` +
          `(${(result.bytes / 1e6 / result.seconds).toFixed(1)} MB/s); server RSS peak ${result.peak.toFixed(0)} MB (+${(result.peak - baseline).toFixed(0)} MB over the baseline), mean ${result.mean.toFixed(0)} MB`,
      );
    }
  } finally {
    clearInterval(sampler);
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
