/**
 * `engram serve` alone on a space of 100k memories: its RSS idle, after 30 searches, after
 * learning 60 notes into the space and after 32 callers searched and saved, with the process's
 * CPU seconds for the searches and for the learning (less sensitive than times to a busy
 * machine). Used to compare the embedded store's settings (shared_buffers) and builds side by
 * side on copies of one filled data directory (docs/benchmarks.md, "Scale").
 *
 *   npm run build
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/serve-memory.ts fill /tmp/space-100k
 *   cp -a /tmp/space-100k /tmp/run && TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx \
 *     bench/scale/serve-memory.ts run packages/server/dist/cli.js /tmp/run label
 *
 * With COLD=1 the 32 callers come first, before any search built the space's in-process copy.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { loadConfig } from '../../packages/server/dist/config.js';
import { factFingerprint } from '../../packages/server/dist/learn/index.js';
import { startServer } from '../../packages/server/dist/server.js';
import { storeFacts } from '../../packages/server/dist/store/memory-repository.js';
import { ensureSpace } from '../../packages/server/dist/store/source-repository.js';

const KEY = 'egk_bench_scale_0123456789abcdefghijklmnop';
let seed = 7;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const skewed = <T>(items: T[]) => items[Math.floor(items.length * random() ** 2)]!;
const syl = ['ka', 'lo', 'mi', 'ren', 'tav', 'os', 'ul', 'bri', 'den', 'sa', 'vor', 'ine', 'pet', 'ra', 'zu', 'gal'];
const word = (n: number) => Array.from({ length: n }, () => syl[Math.floor(random() * syl.length)]).join('');
const cap = (t: string) => t[0]!.toUpperCase() + t.slice(1);
const PEOPLE = Array.from({ length: 60 }, () => cap(word(2)));
const PLACES = Array.from({ length: 400 }, () => cap(word(3)));
const THINGS = Array.from({ length: 4_000 }, () => word(3));
const VERBS = ['bought', 'painted', 'fixed', 'sold', 'found', 'cooked', 'planted', 'visited', 'borrowed', 'carved', 'repaired', 'ordered'];
const ADJ = ['old', 'red', 'small', 'heavy', 'new', 'green', 'quiet', 'bright', 'wooden', 'broken', 'rare', 'cheap'];
const sentence = (day: number) => {
  const p = skewed(PEOPLE);
  return { text: `${p} ${skewed(VERBS)} a ${skewed(ADJ)} ${skewed(THINGS)} in ${skewed(PLACES)} on day ${day}.`, about: [p] };
};
const note = (i: number) => Array.from({ length: 10 }, (_, l) => sentence(i + l).text).join(' ');
const questions = () => [
  `What did ${skewed(PEOPLE)} buy?`,
  `Where did ${skewed(PEOPLE)} paint the ${skewed(THINGS)}?`,
  `Who fixed a ${skewed(ADJ)} ${skewed(THINGS)}?`,
  `What did ${skewed(PEOPLE)} do in ${skewed(PLACES)}?`,
];

const [mode, a, b, label] = process.argv.slice(2);
if (mode === 'fill') {
  const server = await startServer(
    loadConfig({ ENGRAM_PORT: '0', ENGRAM_HOST: '127.0.0.1', ENGRAM_BOOTSTRAP_KEY: KEY, ENGRAM_DATA_DIR: a! }),
    { announceKey: () => {} },
  );
  const db = server.store.db;
  const scope = { accountId: 1, space: 'scale' };
  await ensureSpace(db, scope);
  for (let start = 0; start < 100_000; start += 1_000) {
    const facts = Array.from({ length: 1_000 }, (_, i) => {
      const index = start + i;
      const { text, about } = sentence(index % 365);
      return {
        text,
        kind: 'detail' as const,
        about,
        date: new Date(Date.UTC(2025, 0, 1) + (index % 365) * 86_400_000).toISOString().slice(0, 10),
        fingerprint: factFingerprint(`${text} #${index}`),
        sentence: { text, messageIndex: null, start: 0, end: text.length },
        index: { broader: '', kinds: '', around: '' },
      };
    });
    await db.transaction().execute(async (t) => {
      await sql`insert into sources (id, account_id, space, kind, body, status, learned_at) values (${`src_fill${start}`}, 1, 'scale', 'note', 'generated', 'finished', now())`.execute(
        t,
      );
      await storeFacts(t, scope, `src_fill${start}`, facts as any);
    });
  }
  await sql`analyze`.execute(db);
  await server.close();
  process.exit(0);
}
const rss = async (pid: number) => {
  const s = await readFile(`/proc/${pid}/status`, 'utf8');
  const f = (n: string) => Math.round(Number(new RegExp(`^${n}:\\s+(\\d+) kB`, 'm').exec(s)![1]) / 1024);
  return { rss: f('VmRSS'), peak: f('VmHWM') };
};
const child = spawn(process.execPath, [a!, 'serve'], {
  env: {
    ...process.env,
    ENGRAM_DATA_DIR: b!,
    ENGRAM_PORT: '0',
    ENGRAM_HOST: '127.0.0.1',
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_POLL_MS: '20',
    ENGRAM_ACCOUNT_RPM: '1000000',
    ENGRAM_RECALL_CACHE_MEMORIES: '200000',
  },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const url = await new Promise<string>((resolve, reject) => {
  let seen = '';
  child.stderr!.on('data', (c: Buffer) => {
    seen += c;
    const m = /listening on (\S+)/.exec(seen);
    if (m) resolve(m[1]!);
  });
  child.once('exit', (code) => reject(new Error(`exit ${code} ${seen}`)));
});
const call = async (method: string, path: string, space: string, body?: unknown) => {
  const r = await fetch(url + path, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'X-Memory-Space': space, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const t = await r.text();
  if (r.status >= 400) throw new Error(t);
  return t ? JSON.parse(t) : null;
};
await new Promise((r) => setTimeout(r, 1500));
const cpu = async () => {
  const f = (await readFile(`/proc/${child.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const idle = await rss(child.pid!);
const c0 = await cpu();
if (process.env.COLD) {
  await Promise.all(
    Array.from({ length: 32 }, async (_, c) => {
      for (let i = 0; i < 10; i++) {
        if (i % 2) await call('POST', '/v1/search', 'scale', { q: questions()[i % 4] });
        else await call('POST', '/v1/memories', `alone-${c % 8}`, { text: note(c * 50 + i) });
      }
    }),
  );
  const l = await rss(child.pid!);
  await new Promise((r) => setTimeout(r, 3000));
  const l2 = await rss(child.pid!);
  console.log(JSON.stringify({ label, idle: idle.rss, loaded: l.rss, peak: l.peak, after3s: l2.rss }));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  process.exit(0);
}
const t0 = performance.now();
await call('POST', '/v1/search', 'scale', { q: 'What did they repair?' });
const first = performance.now() - t0;
const searches: number[] = [];
for (let i = 0; i < 30; i++) {
  const t = performance.now();
  await call('POST', '/v1/search', 'scale', { q: questions()[i % 4] });
  searches.push(performance.now() - t);
}
const afterSearch = await rss(child.pid!);
const c1 = await cpu();
// Learning 60 notes into the full space.
const l0 = performance.now();
await call('POST', '/v1/memories/batch', 'scale', { items: Array.from({ length: 60 }, (_, i) => ({ text: note(i + 5000) })) });
for (;;) {
  const s = await call('GET', '/v1/sources?limit=200', 'scale');
  if (!s.sources.some((x: any) => x.status !== 'finished' && x.status !== 'failed')) break;
  await new Promise((r) => setTimeout(r, 100));
}
const learnS = (performance.now() - l0) / 1000;
const c2 = await cpu();
await Promise.all(
  Array.from({ length: 32 }, async (_, c) => {
    for (let i = 0; i < 10; i++) {
      if (i % 2) await call('POST', '/v1/search', 'scale', { q: questions()[i % 4] });
      else await call('POST', '/v1/memories', `alone-${c % 8}`, { text: note(c * 50 + i) });
    }
  }),
);
const loaded = await rss(child.pid!);
searches.sort((x, y) => x - y);
console.log(
  JSON.stringify({
    label,
    idle: idle.rss,
    afterSearch: afterSearch.rss,
    loaded: loaded.rss,
    peak: loaded.peak,
    firstSearchMs: Math.round(first),
    searchP50: +searches[15]!.toFixed(1),
    searchP95: +searches[28]!.toFixed(1),
    notesPerS: +(60 / learnS).toFixed(2),
    cpuSearch: +(c1 - c0).toFixed(2),
    cpuLearn: +(c2 - c1).toFixed(2),
    load: (await readFile('/proc/loadavg', 'utf8')).split(' ')[0],
  }),
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
