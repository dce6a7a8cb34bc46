/**
 * Saves: `POST /v1/memories` latency and throughput on the embedded store and on PostgreSQL.
 *
 *   npm run bench:saves                          # both stores
 *   npm run bench:saves -- --stores pglite       # one store
 *   npm run bench:saves -- --no-learning         # ENGRAM_WORKERS=0: saves alone, nothing learned meanwhile
 *   npm run bench:saves -- --cli path/to/cli.js  # another build of the server (a before/after comparison)
 *   npm run bench:saves -- --profile /tmp/prof   # the server's CPU profile (node --cpu-prof)
 *
 * Each store gets `engram serve` from the build, started in a process of its own on a free port
 * (a fresh data directory, or a fresh PostgreSQL database on ENGRAM_TEST_DATABASE_URL's server),
 * with its learning worker on: what is saved is learned while the saves go on, as in use. After
 * a warm-up it measures `--sequential` saves one after another (p50/p95/p99), then saves/s and
 * latency with 1, 8 and 32 callers saving at once (`--saves` in all at each, into 8 spaces), each
 * caller's connection opened by one unmeasured save first; then `--batches` batches of 100 notes
 * one after another (latency per batch, notes/s).
 * Each note holds ten short generated facts. The load average is printed at the start and the end:
 * on a shared machine compare runs made back to back. Beside each phase's latency, the server's CPU
 * time per save (from /proc, all its threads, its learning included when on), which other jobs on
 * the machine stretch far less than they stretch latency.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fmt, percentiles, round } from '../common/figures.js';
import { freshStore } from '../common/fresh-store.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'pglite,postgres' },
    sequential: { type: 'string', default: '300' },
    /** Saves at each number of callers, shared among them. */
    saves: { type: 'string', default: '320' },
    callers: { type: 'string', default: '1,8,32' },
    /** Batches of 100 notes saved one after another at the end (0: none). */
    batches: { type: 'string', default: '20' },
    'no-learning': { type: 'boolean', default: false },
    /** Write the server's CPU profile (node --cpu-prof) into this directory. */
    profile: { type: 'string' },
    cli: { type: 'string', default: fileURLToPath(new URL('../../packages/server/dist/cli.js', import.meta.url)) },
  },
});
const STORES = values.stores.split(',') as ('pglite' | 'postgres')[];
const SEQUENTIAL = Number(values.sequential);
const SAVES = Number(values.saves);
const CALLERS = values.callers.split(',').map(Number);
const BATCHES = Number(values.batches);
const KEY = 'egk_bench_saves_0123456789abcdefghijklmnop';

// Ten short generated facts a note, from a fixed seed.
let seed = 11;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const syllables = ['ka', 'lo', 'mi', 'ren', 'tav', 'os', 'ul', 'bri', 'den', 'sa', 'vor', 'ine', 'pet', 'ra', 'zu', 'gal'];
const word = (parts: number) => Array.from({ length: parts }, () => syllables[Math.floor(random() * syllables.length)]).join('');
const capital = (text: string) => text[0]!.toUpperCase() + text.slice(1);
const VERBS = ['bought', 'painted', 'fixed', 'sold', 'found', 'cooked', 'planted', 'visited'];
const fact = (day: number) => `${capital(word(2))} ${VERBS[day % VERBS.length]} a ${word(3)} in ${capital(word(3))} on day ${day}.`;
const note = (index: number) => Array.from({ length: 10 }, (_, line) => fact(index + line)).join(' ');

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

interface Served {
  url: string;
  /** The server process's CPU time so far (user and system, all its threads), in ms; null where /proc is not. */
  cpu(): number | null;
  stop(): Promise<void>;
}

/** A process's CPU time (user + system, ms) from /proc (Linux), or null. */
function cpuOf(pid: number | undefined): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

async function serve(kind: 'pglite' | 'postgres'): Promise<Served> {
  const env: Record<string, string> = {
    ENGRAM_PORT: '0',
    ENGRAM_HOST: '127.0.0.1',
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_ACCOUNT_RPM: '1000000',
    ENGRAM_WORKERS: values['no-learning'] ? '0' : '1',
  };
  const store = await freshStore(kind, 'saves');
  Object.assign(env, store.env);
  const profile = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
  const child = spawn(process.execPath, [...profile, values.cli, 'serve'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`engram serve exited (${code}): ${seen.slice(-500)}`)));
  });
  return {
    url,
    cpu: () => cpuOf(child.pid),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await store.remove();
    },
  };
}

let saved = 0;
async function saveOne(url: string, space: string): Promise<number> {
  const began = performance.now();
  const response = await fetch(`${url}/v1/memories`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'X-Memory-Space': space, 'Content-Type': 'application/json' },
    body: JSON.stringify({ text: note(saved++) }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST /v1/memories → ${response.status}: ${text.slice(0, 300)}`);
  return performance.now() - began;
}

/** `POST /v1/memories/batch` of 100 notes, `count` times one after another: latency per batch and notes/s. */
async function batches(url: string, count: number): Promise<{ perSecond: number; latency: ReturnType<typeof percentiles> }> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const items = Array.from({ length: 100 }, () => ({ text: note(saved++) }));
    const began = performance.now();
    const response = await fetch(`${url}/v1/memories/batch`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'X-Memory-Space': `batch-${index % 8}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ items }),
    });
    const text = await response.text();
    if (response.status !== 202) throw new Error(`POST /v1/memories/batch → ${response.status}: ${text.slice(0, 300)}`);
    latencies.push(performance.now() - began);
  }
  return { perSecond: (100 * count) / (latencies.reduce((sum, value) => sum + value, 0) / 1_000), latency: percentiles(latencies) };
}

/**
 * The server's CPU time per save over a phase (all its threads: HTTP, the store's, the learner's),
 * which a loaded machine stretches far less than it stretches latency.
 */
function perSave(before: number | null, after: number | null, saves: number): string {
  return before === null || after === null ? '' : ` (server CPU ${round((after - before) / saves)} ms a save)`;
}

async function callers(url: string, count: number): Promise<{ perSecond: number; latency: ReturnType<typeof percentiles>; saves: number }> {
  // Each caller's connection is opened first, unmeasured: a client's pool keeps its connections,
  // and 24 new ones at once cost 60-100 ms each, one after another, which is not a save's cost.
  await Promise.all(Array.from({ length: count }, (_, caller) => saveOne(url, `space-${caller % 8}`)));
  const latencies: number[] = [];
  const began = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, caller) => {
      for (let index = 0; index < Math.ceil(SAVES / count); index++) latencies.push(await saveOne(url, `space-${caller % 8}`));
    }),
  );
  return { perSecond: latencies.length / ((performance.now() - began) / 1_000), latency: percentiles(latencies), saves: latencies.length };
}

console.log(`load average at the start: ${load()} (${values['no-learning'] ? 'no learning' : 'learning on'}; ${values.cli})`);
for (const kind of STORES) {
  const served = await serve(kind);
  try {
    for (let index = 0; index < 30; index++) await saveOne(served.url, 'warm-up');
    const sequential: number[] = [];
    let cpu = served.cpu();
    for (let index = 0; index < SEQUENTIAL; index++) sequential.push(await saveOne(served.url, 'sequential'));
    const line = [`${kind}: sequential p50/p95/p99 ${fmt(percentiles(sequential))} ms${perSave(cpu, served.cpu(), SEQUENTIAL)}`];
    for (const count of CALLERS) {
      cpu = served.cpu();
      const figures = await callers(served.url, count);
      line.push(
        `${count} callers ${round(figures.perSecond)} saves/s, p50/p95/p99 ${fmt(figures.latency)} ms${perSave(cpu, served.cpu(), count + figures.saves)}`,
      );
    }
    if (BATCHES) {
      const figures = await batches(served.url, BATCHES);
      line.push(`${BATCHES} batches of 100: p50/p95/p99 ${fmt(figures.latency)} ms, ${round(figures.perSecond)} notes/s`);
    }
    console.log(line.join('; '));
  } finally {
    await served.stop();
  }
}
console.log(`load average at the end: ${load()}`);
