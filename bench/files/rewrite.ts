/**
 * Rewriting a 1 MB file with one changed paragraph, against writing it fresh: tokens
 * learned (billed) and time until learned. Runs one Engram in memory (PGlite).
 *
 *   npx tsx bench/files/rewrite.ts            (1 MB; BENCH_FILE_BYTES=250000 for a quick run)
 */
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';

const KEY = 'egk_bench_files_0123456789abcdefghijklmnop';
const TARGET_BYTES = Number(process.env.BENCH_FILE_BYTES ?? 1_000_000);

const names = ['Lena', 'Tomas', 'Priya', 'Omar', 'Ines', 'Sven', 'Mia', 'Ravi', 'Zoe', 'Nadia', 'Amir', 'Cleo'];
const places = ['Bergen', 'Porto', 'Leeds', 'Lisbon', 'Dublin', 'Kyoto', 'Quito', 'Oslo', 'Accra', 'Lyon'];
const things = ['a kayak', 'three goats', 'a blue tram', 'a red scooter', 'a cello', 'an old camera', 'a bakery', 'a garden'];

/** A paragraph of five plain facts; `seed` makes each paragraph different. */
function paragraph(seed: number): string {
  const name = `${names[seed % names.length]} ${String.fromCharCode(65 + (seed % 26))}${seed}`;
  return [
    `${name} lives in ${places[seed % places.length]}.`,
    `${name} owns ${things[seed % things.length]}.`,
    `${name} works at the ${places[(seed + 3) % places.length]} office on project ${seed}.`,
    `${name} plays chess every ${['Monday', 'Tuesday', 'Friday'][seed % 3]}.`,
    `${name} was born in ${1950 + (seed % 60)}.`,
  ].join(' ');
}

function document(paragraphs: number, changed: number | null): string {
  const parts: string[] = [];
  for (let index = 0; index < paragraphs; index++) {
    parts.push(
      index === changed
        ? paragraph(index)
            .replace(/lives in \w+/, 'lives in Reykjavik')
            .replace(/owns [^.]+/, 'owns a sailing boat')
        : paragraph(index),
    );
  }
  return `# People\n\n${parts.join('\n\n')}\n`;
}

async function main(): Promise<void> {
  let paragraphs = 1;
  while (Buffer.byteLength(document(paragraphs, null)) < TARGET_BYTES) paragraphs = Math.ceil(paragraphs * 1.5) + 1;
  while (Buffer.byteLength(document(paragraphs - 1, null)) >= TARGET_BYTES) paragraphs--;
  const original = document(paragraphs, null);
  const changed = document(paragraphs, Math.floor(paragraphs / 2));

  const server = await startServer(
    loadConfig({
      ENGRAM_PORT: '0',
      ENGRAM_DATA_DIR: 'memory://',
      ENGRAM_BOOTSTRAP_KEY: KEY,
      ENGRAM_POLL_MS: '20',
      ENGRAM_ACCOUNT_RPM: '100000',
    }),
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'X-Memory-Space': 'bench' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const learned = async () => (await call('GET', '/v1/usage')).learned_tokens as number;
  const write = async (text: string) => {
    const before = await learned();
    const started = performance.now();
    const written = await call('PUT', '/v1/files', { path: '/people.md', text, space: 'bench' });
    const answered = performance.now();
    let source = written.source;
    while (source.status === 'queued' || source.status === 'learning') {
      source = (await call('GET', `/v1/sources/${source.id}?wait=60`)).source;
    }
    const finished = performance.now();
    return {
      status: source.status as string,
      tokens: (await learned()) - before,
      putMs: Math.round(answered - started),
      totalMs: Math.round(finished - started),
      memories: source.memories as number,
    };
  };

  try {
    const fresh = await write(original);
    const rewrite = await write(changed);
    const unchanged = await write(changed);
    const kb = (Buffer.byteLength(original) / 1000).toFixed(0);
    console.log(`File: ${kb} kB, ${paragraphs} paragraphs of 5 sentences; the rewrite changes 2 sentences of 1 paragraph.`);
    console.log('| write | learned tokens (billed) | PUT answered | until learned | memories of the file |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const [label, run] of [
      ['fresh', fresh],
      ['rewrite, one paragraph changed', rewrite],
      ['same text again', unchanged],
    ] as const) {
      console.log(`| ${label} | ${run.tokens} | ${run.putMs} ms | ${run.totalMs} ms | ${run.memories} |`);
    }
  } finally {
    await server.close();
  }
}

await main();
