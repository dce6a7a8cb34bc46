/**
 * The heap one in-process copy of a space's search index holds (packages/server/src/store/memory-index.ts),
 * built in this process from N generated memories, without a store: the rows are made as the
 * store answers the build (`hitColumns`, tsvector text included), 2,000 a chunk, as the build
 * reads them.
 *
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --expose-gc --import tsx bench/scale/index-heap.ts --memories 100000
 *   ... --vocabulary 300000 --skew 1      # many more distinct words (each lexeme's postings cost more in the old layout)
 *
 * To compare with an earlier build of the copy, put that build's memory-index.ts next to the
 * current one and name it with --old (it is built from the same rows, measured the same way, and
 * asked the same questions; the answers must be equal):
 *
 *   git show <commit>:packages/server/src/store/memory-index.ts > packages/server/src/store/memory-index-old.ts
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --expose-gc --import tsx bench/scale/index-heap.ts \
 *     --memories 100000 --old packages/server/src/store/memory-index-old.ts
 *
 * "Held" is the JavaScript heap plus the typed arrays' buffers still in use once the copy is built
 * and garbage collected, less what was in use before; "live at most" the same, read after each
 * chunk (so the build's own peak, garbage collected; the rows of one chunk included).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type HitRow, hitOf, type LexemeSearch } from '../../packages/server/src/store/memory-repository.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    old: { type: 'string' },
    questions: { type: 'string', default: '200' },
    /** Distinct words the memories are made of, and how skewed their use is (1 even; 3: a few words everywhere, most rare). */
    vocabulary: { type: 'string', default: '30000' },
    skew: { type: 'string', default: '3' },
  },
});
const MEMORIES = Number(values.memories);
const CHUNK = 2_000;

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');

// ---- generated memories -----------------------------------------------------------------------
// Words drawn with a skew (a few everywhere, most rare), as in real notes. A memory's tsvector
// has its own words (A, some B), the rest of its message (C), the message it answers (D) and a
// few broader words without positions (^word), as the learner writes them.
// mulberry32: 32-bit integer steps (a product past 2^53 in doubles would repeat far too soon).
let seed = 17;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let mixed = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
  return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
};
const syllables = ['ka', 'lo', 'mi', 'ren', 'tav', 'os', 'ul', 'bri', 'den', 'sa', 'vor', 'ine', 'pet', 'ra', 'zu', 'gal'];
const word = (parts: number) => Array.from({ length: parts }, () => syllables[Math.floor(random() * syllables.length)]).join('');
const VOCABULARY = Array.from({ length: Number(values.vocabulary) }, (_, index) => `${word(2 + (index % 3))}${index.toString(36)}`);
const PEOPLE = Array.from({ length: 60 }, () => word(2));
const SKEW = Number(values.skew);
const skewed = <T>(items: T[]) => items[Math.floor(items.length * random() ** SKEW)]!;

function tsvectorOf(): string {
  const entries = new Map<string, string[]>();
  let position = 1;
  const add = (lexeme: string, weight: string) => {
    const positions = entries.get(lexeme) ?? [];
    positions.push(`${position++}${weight}`);
    entries.set(lexeme, positions);
  };
  for (let index = 0; index < 8; index++) add(skewed(VOCABULARY), random() < 0.2 ? 'B' : 'A');
  for (let index = 0; index < 14; index++) add(skewed(VOCABULARY), 'C');
  for (let index = 0; index < 8; index++) add(skewed(VOCABULARY), '');
  const text = [...entries].sort(([left], [right]) => (left < right ? -1 : 1)).map(([lexeme, at]) => `'${lexeme}':${at.join(',')}`);
  // A tsvector holds each lexeme once.
  for (const broader of new Set(Array.from({ length: 3 }, () => skewed(VOCABULARY)))) text.push(`'^${broader}'`);
  if (random() < 0.1) text.push(`'20${10 + Math.floor(random() * 15)}':${position}A`);
  return text.join(' ');
}

const KINDS = ['detail', 'plan', 'pref', 'people'] as const;

function rowsFrom(first: number, count: number): HitRow[] {
  return Array.from({ length: count }, (_, offset) => {
    const id = first + offset;
    const person = skewed(PEOPLE);
    return {
      id,
      kind: KINDS[id % 4]!,
      about: [person],
      created_at: Date.UTC(2025, 0, 1) + id * 1_000,
      said: Date.UTC(2025, 0, 1) + (id % 365) * 86_400_000,
      tsv: tsvectorOf(),
      slot: id % 7 === 0 ? `${person}|home` : null,
      labels: id % 5 === 0 ? { topic: `t${id % 3}` } : null,
      // Memories of one message share a passage (a source's message), the rest are on their own.
      passage: id % 3 === 0 ? String(id) : `src_${String(Math.floor(id / 30)).padStart(20, '0')}:${id % 30}`,
      reported: id % 11 === 0,
    };
  });
}

// ---- the copies measured -----------------------------------------------------------------------

interface Copy {
  compact(): void;
  search(options: LexemeSearch): unknown;
  rank(ids: number[], lexemes: string[]): Map<number, number>;
  size: number;
}

/** A build of the copy: the current one reads rows (`appendRows`); an earlier one read memories parsed first (`append`). */
async function builderOf(path: string): Promise<{ make: () => Copy; add: (copy: Copy, rows: HitRow[]) => void }> {
  const module = await import(pathToFileURL(resolve(path)).href);
  const SpaceIndex = module.SpaceIndex as new (
    version: string,
  ) => Copy & {
    appendRows?: (rows: HitRow[]) => void;
    append?: (memories: unknown[]) => void;
  };
  return {
    make: () => new SpaceIndex('1'),
    add: (copy, rows) => {
      const built = copy as InstanceType<typeof SpaceIndex>;
      if (built.appendRows) built.appendRows(rows);
      else built.append!(rows.map((row) => ({ ...hitOf(row), labels: row.labels ?? {}, ...module.parseTsvector(row.tsv) })));
    },
  };
}

/** The heap and typed arrays' buffers in use, garbage collected (V8 frees buffers concurrently: twice, a moment apart). */
const used = async () => {
  for (let round = 0; round < 2; round++) {
    collect!();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

async function measure(name: string, path: string): Promise<{ held: number; peak: number; buildMs: number; answers: string }> {
  const { make, add } = await builderOf(path);
  seed = 17;
  const before = await used();
  let peak = 0;
  const started = performance.now();
  let copy: Copy | null = make();
  for (let first = 1; first <= MEMORIES; first += CHUNK) {
    add(copy, rowsFrom(first, Math.min(CHUNK, MEMORIES - first + 1)));
    peak = Math.max(peak, (await used()) - before);
  }
  copy.compact();
  const buildMs = performance.now() - started;
  const held = (await used()) - before;
  peak = Math.max(peak, held);
  // The same questions of both builds: the answers (hits, totals, counts and ranks) must be equal.
  seed = 99;
  const answers: string[] = [];
  const searchStarted = performance.now();
  for (let question = 0; question < Number(values.questions); question++) {
    const lexemes = Array.from({ length: 2 + (question % 4) }, () => skewed(VOCABULARY));
    if (question % 5 === 0) lexemes.push(`^${skewed(VOCABULARY)}`);
    const options: LexemeSearch = {
      lexemes,
      kind: question % 3 === 0 ? 'all' : KINDS[question % 4]!,
      ...(question % 4 === 1 ? { scoreOnly: new Set([lexemes[0]!]) } : {}),
      ...(question % 6 === 2 ? { factOnly: new Set([lexemes.at(-1)!]) } : {}),
      ...(question % 7 === 3 ? { labels: { topic: 't1' } } : {}),
      ...(question % 9 === 4 ? { said: { start: Date.UTC(2025, 2, 1), end: Date.UTC(2025, 2, 8) } } : {}),
    };
    const found = copy.search(options) as { hits: { id: number }[]; total: number; counts: Map<string, number> };
    const ranks = copy.rank(
      found.hits.slice(0, 200).map((hit) => hit.id),
      lexemes,
    );
    answers.push(JSON.stringify([options, found.hits, found.total, [...found.counts], [...ranks]]));
  }
  const searchMs = (performance.now() - searchStarted) / Number(values.questions);
  const lexemes = (copy as unknown as { lexemes?: Map<string, number> }).lexemes?.size;
  console.log(
    `${name}: ${copy.size} memories${lexemes ? ` (${lexemes} distinct lexemes)` : ''}; held ${mb(held)} MB; live at most ${mb(peak)} MB during the build; built in ${Math.round(buildMs)} ms; ${searchMs.toFixed(2)} ms a question`,
  );
  copy = null;
  await used();
  return { held, peak, buildMs, answers: answers.join('\n') };
}

const current = await measure('current', 'packages/server/src/store/memory-index.ts');
if (values.old) {
  const old = await measure('old', values.old);
  console.log(
    `held ${mb(old.held)} → ${mb(current.held)} MB; live at most ${mb(old.peak)} → ${mb(current.peak)} MB; answers ${old.answers === current.answers ? 'identical' : 'DIFFERENT'}`,
  );
  if (old.answers !== current.answers) {
    const oldLines = old.answers.split('\n');
    const first = current.answers.split('\n').findIndex((line, index) => line !== oldLines[index]);
    console.log(`the first answer that differs: question ${first}`);
    process.exitCode = 1;
  }
}
