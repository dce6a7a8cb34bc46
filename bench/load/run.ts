/**
 * Load run: mixed traffic (saves, search, context, ask, files) from N concurrent connections
 * for a bounded time and count, on loopback only, against
 *   - one `engram serve` on the embedded store (a fresh data directory), and
 *   - two `engram serve --no-workers` and two `engram worker` on a fresh PostgreSQL database.
 * Prints throughput, p50/p95/p99 latency per operation, errors, and whether every acknowledged
 * write is stored.
 *
 *   npm run bench:load                                  # both, 50 connections, 60 s each
 *   npm run bench:load -- --seconds 20 --connections 20 --only single
 *   npm run bench:load -- --only single --cli path/to/cli.js   # another build of the server (a before/after comparison)
 */

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Agent, request } from 'undici';

const ADMIN_URL = process.env.ENGRAM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KEY = 'egk_load_owner_key_0123456789abcdefghijklmnopq';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    /** At most this many requests a scenario (a bound beside the time). */
    max: { type: 'string', default: '200000' },
    only: { type: 'string' },
    cli: { type: 'string', default: fileURLToPath(new URL('../../packages/server/dist/cli.js', import.meta.url)) },
  },
});
const CLI = values.cli;
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const MAX_REQUESTS = Number(values.max);

type Operation = 'save' | 'search' | 'context' | 'ask' | 'file';
/** The mix: out of 20 requests. */
const MIX: Operation[] = [
  ...Array<Operation>(8).fill('save'),
  ...Array<Operation>(5).fill('search'),
  ...Array<Operation>(3).fill('context'),
  ...Array<Operation>(2).fill('ask'),
  ...Array<Operation>(2).fill('file'),
];
const SPACES = Array.from({ length: 10 }, (_, index) => `load-${index}`);
const PEOPLE = ['Ines', 'Tomas', 'Wanjiru', 'Kofi', 'Lena', 'Arjun', 'Mei', 'Sven'];
const HOBBIES = ['rows on the river', 'restores old radios', 'keeps bees', 'plays the oboe', 'climbs in the Alps', 'bakes rye bread'];

interface Engram {
  child: ChildProcess;
  url: string;
}

async function start(args: string[], env: Record<string, string>): Promise<Engram> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ENGRAM_HOST: '127.0.0.1', ENGRAM_PORT: '0', ENGRAM_BOOTSTRAP_KEY: KEY, ENGRAM_ACCOUNT_RPM: '1000000', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening) resolve(listening[1]!);
      else if (/workers running/.test(output)) resolve('');
    });
    child.on('exit', (code) => reject(new Error(`engram ${args.join(' ')} exited with ${code}: ${output}`)));
  });
  return { child, url };
}

async function stop(engram: Engram): Promise<void> {
  if (engram.child.exitCode !== null) return;
  const exited = new Promise((resolve) => engram.child.on('exit', resolve));
  engram.child.kill('SIGTERM');
  await exited;
}

interface Tally {
  latencies: Map<Operation, number[]>;
  statuses: Map<number, number>;
  networkErrors: number;
  acknowledged: { id: string; space: string }[];
  requests: number;
}

function percentile(sorted: number[], share: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

async function drive(urls: string[]): Promise<{ tally: Tally; seconds: number }> {
  const dispatcher = new Agent({ connections: Math.ceil(CONNECTIONS / urls.length) + 1, keepAliveTimeout: 30_000 });
  const tally: Tally = { latencies: new Map(), statuses: new Map(), networkErrors: 0, acknowledged: [], requests: 0 };
  const began = performance.now();
  const until = began + SECONDS * 1_000;
  let counter = 0;

  async function one(connection: number): Promise<void> {
    const number = counter++;
    const operation = MIX[number % MIX.length]!;
    const space = SPACES[number % SPACES.length]!;
    const person = PEOPLE[number % PEOPLE.length]!;
    const base = urls[connection % urls.length]!;
    let method = 'POST';
    let path = '';
    let body: unknown;
    switch (operation) {
      case 'save':
        path = '/v1/memories';
        body = {
          space,
          text: `${person} ${HOBBIES[number % HOBBIES.length]} since visit ${number}. ${person} met a friend in town on day ${number % 28}.`,
        };
        break;
      case 'search':
        path = '/v1/search';
        body = { space, q: `What does ${person} do?` };
        break;
      case 'context':
        path = '/v1/context';
        body = { space, question: `Who did ${person} meet?` };
        break;
      case 'ask':
        path = '/v1/ask';
        body = { space, question: `What does ${person} do on weekends?` };
        break;
      case 'file':
        method = 'PUT';
        path = '/v1/files';
        body = {
          space,
          path: `/notes/${person.toLowerCase()}-${number % 50}.md`,
          text: `# ${person}\n\n${person} ${HOBBIES[number % HOBBIES.length]}. Note ${number}.`,
        };
        break;
    }
    const sent = performance.now();
    try {
      const response = await request(`${base}${path}`, {
        method: method as 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher,
      });
      const answer = (await response.body.json()) as { source?: { id: string } };
      const elapsed = performance.now() - sent;
      tally.statuses.set(response.statusCode, (tally.statuses.get(response.statusCode) ?? 0) + 1);
      if (response.statusCode < 300) {
        const list = tally.latencies.get(operation) ?? [];
        list.push(elapsed);
        tally.latencies.set(operation, list);
        if (operation === 'save') tally.acknowledged.push({ id: answer.source!.id, space });
      }
    } catch {
      tally.networkErrors += 1;
    }
    tally.requests += 1;
  }

  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, connection) => {
      while (performance.now() < until && counter < MAX_REQUESTS) await one(connection);
    }),
  );
  const seconds = (performance.now() - began) / 1_000;
  await dispatcher.close();
  return { tally, seconds };
}

function report(name: string, tally: Tally, seconds: number, lost: number): string {
  const lines = [
    `## ${name}`,
    '',
    `${tally.requests} requests in ${seconds.toFixed(1)} s from ${CONNECTIONS} connections: ${(tally.requests / seconds).toFixed(0)} requests/s`,
  ];
  const all = [...tally.latencies.values()].flat().sort((a, b) => a - b);
  lines.push('', '| operation | ok | p50 ms | p95 ms | p99 ms |', '| --- | ---: | ---: | ---: | ---: |');
  for (const operation of ['save', 'search', 'context', 'ask', 'file'] as Operation[]) {
    const sorted = (tally.latencies.get(operation) ?? []).sort((a, b) => a - b);
    lines.push(
      `| ${operation} | ${sorted.length} | ${percentile(sorted, 0.5).toFixed(0)} | ${percentile(sorted, 0.95).toFixed(0)} | ${percentile(sorted, 0.99).toFixed(0)} |`,
    );
  }
  lines.push(
    `| all | ${all.length} | ${percentile(all, 0.5).toFixed(0)} | ${percentile(all, 0.95).toFixed(0)} | ${percentile(all, 0.99).toFixed(0)} |`,
  );
  const statuses = [...tally.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const fivexx = [...tally.statuses.entries()].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
  lines.push(
    '',
    `statuses: ${statuses}; 5xx: ${fivexx}; network errors: ${tally.networkErrors}; acknowledged saves: ${tally.acknowledged.length}, lost: ${lost}`,
    '',
  );
  return lines.join('\n');
}

/** Counts acknowledged saves the API cannot find (there should be none). */
async function lostThroughApi(url: string, saves: { id: string; space: string }[]): Promise<number> {
  let lost = 0;
  const dispatcher = new Agent({ connections: 8 });
  const queue = [...saves];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let save = queue.pop(); save; save = queue.pop()) {
        const response = await request(`${url}/v1/sources/${save.id}?space=${save.space}`, {
          headers: { authorization: `Bearer ${KEY}` },
          dispatcher,
        });
        await response.body.dump();
        if (response.statusCode !== 200) lost += 1;
      }
    }),
  );
  await dispatcher.close();
  return lost;
}

async function single(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'engram-load-'));
  const engram = await start(['serve'], { ENGRAM_DATA_DIR: dataDir });
  try {
    const { tally, seconds } = await drive([engram.url]);
    const lost = await lostThroughApi(engram.url, tally.acknowledged);
    return report('One process, embedded store (engram serve, 1 worker)', tally, seconds, lost);
  } finally {
    await stop(engram);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function cluster(): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const name = `engram_load_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString() };
  const processes: Engram[] = [];
  try {
    processes.push(await start(['serve', '--no-workers'], env));
    processes.push(...(await Promise.all([start(['serve', '--no-workers'], env), start(['worker'], env), start(['worker'], env)])));
    const urls = processes.map((engram) => engram.url).filter(Boolean);
    const { tally, seconds } = await drive(urls);
    const store = new pg.Client({ connectionString: url.toString() });
    await store.connect();
    const { rows } = await store.query<{ count: number }>(`select count(*)::int as count from sources where id = any($1::text[])`, [
      tally.acknowledged.map((save) => save.id),
    ]);
    await store.end();
    return report(
      'Two API processes and two workers, PostgreSQL (engram serve --no-workers × 2, engram worker × 2)',
      tally,
      seconds,
      tally.acknowledged.length - rows[0]!.count,
    );
  } finally {
    await Promise.all(processes.map(stop));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const results: string[] = [];
if (!values.only || values.only === 'single') results.push(await single());
if (!values.only || values.only === 'cluster') results.push(await cluster());
process.stdout.write(`${results.join('\n')}\n`);
