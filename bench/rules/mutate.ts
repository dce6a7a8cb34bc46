/**
 * Do the tests pin the learner's and the ranking's rules? Deletes one random entry of a word
 * list or one alternative of a pattern (bench/rules/sites.ts), or scales one named ranking
 * weight by ±30%, runs the unit tests of the learner and the ranking, puts the file back,
 * and counts the mutations a test caught. Seeded, so a run is repeatable.
 *
 *   npm run bench:rules                      # 40 deletions + 20 weight changes, seed 1
 *   npm run bench:rules -- --deletions 10 --weights 0 --seed 7
 *   npm run bench:rules -- --list            # count the sites per file, run nothing
 *   npm run bench:rules -- --dry             # print the chosen mutations, run nothing
 *   npm run bench:rules -- --file chit-chat --match 'oh no'   # every site whose label has this
 *   npm run bench:rules -- --file chit-chat  # only sites of files whose path contains this
 *   npm run bench:rules -- --tests packages/server/src/recall/ranking.test.ts --file weights --weights 40 --deletions 0
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULE_FILES, type Site, sitesOf, WEIGHTS_FILE, weightSites } from './sites.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const deletions = Number(option('deletions', '40'));
const weightChanges = Number(option('weights', '20'));
const seed = Number(option('seed', '1'));
const only = option('file', '');
/** Every site whose label contains this (no random pick), to check the tests of one entry. */
const match = option('match', '');

/** The unit tests that cover the learner and the ranking (--tests a,b to run fewer while writing tests). */
const TESTS = option('tests', 'packages/server/src/learn/,packages/server/src/recall/,packages/server/src/text/').split(',');

/** mulberry32: a small seeded generator, so the same seed picks the same mutations. */
function random(seedValue: number): () => number {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], count: number, next: () => number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) picked.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
  return picked;
}

/** The table-driven and golden tests, run first: most mutations fail them, and they are quick. */
const FIRST = ['packages/server/src/learn/rules.test.ts', 'packages/server/src/recall/ranking.test.ts'];

/** Whether the given tests fail (vitest exits non-zero). */
function fails(tests: string[]): boolean {
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'unit', '--bail', '1', '--reporter', 'dot', ...tests], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
  });
  return run.status !== 0;
}

/**
 * Runs the unit tests with one site mutated; true when a test fails (the mutation is caught).
 * The quick tests go first; only when they pass do the rest of the unit tests run.
 */
function caught(site: Site): boolean {
  const path = join(root, site.file);
  const original = readFileSync(path, 'utf8');
  writeFileSync(path, original.slice(0, site.start) + site.text + original.slice(site.end));
  try {
    const first = FIRST.filter((test) => existsSync(join(root, test)) && TESTS.some((covered) => test.startsWith(covered)));
    return (first.length > 0 && fails(first)) || fails(TESTS);
  } finally {
    writeFileSync(path, original);
  }
}

const files = RULE_FILES.filter((file) => file.includes(only));
const entrySites = files.flatMap((file) => sitesOf(file, root));
const weights = existsSync(join(root, WEIGHTS_FILE)) && WEIGHTS_FILE.includes(only) ? weightSites(root, [0.7, 1.3]) : [];

if (args.includes('--list')) {
  const perFile = new Map<string, number>();
  for (const site of entrySites) perFile.set(site.file, (perFile.get(site.file) ?? 0) + 1);
  for (const [file, count] of perFile) console.log(`${String(count).padStart(5)}  ${file}`);
  console.log(`${String(entrySites.length).padStart(5)}  entries and alternatives in all`);
  console.log(`${String(weights.length / 2).padStart(5)}  named weights (${WEIGHTS_FILE})`);
  if (args.includes('--verbose')) for (const site of [...entrySites, ...weights]) console.log(`${site.file}:${site.line} ${site.label}`);
  process.exit(0);
}

const next = random(seed);
const chosen =
  match === ''
    ? [...pick(entrySites, deletions, next), ...pick(weights, weightChanges, next)]
    : [...entrySites, ...weights].filter((site) => site.label.includes(match));
console.log(
  `seed ${seed}: ${chosen.length} mutations of ${entrySites.length} entry sites and ${weights.length / 2} weights, tests: ${TESTS.join(' ')}`,
);
if (args.includes('--dry')) {
  for (const [index, site] of chosen.entries())
    console.log(
      `${String(index + 1).padStart(3)} ${site.file.replace('packages/server/src/', '')}:${site.line} ${site.label.slice(0, 90)}`,
    );
  process.exit(0);
}
const results: { site: Site; caught: boolean }[] = [];
for (const [index, site] of chosen.entries()) {
  const started = Date.now();
  const result = caught(site);
  results.push({ site, caught: result });
  console.log(
    `${String(index + 1).padStart(3)} ${result ? 'caught  ' : 'SURVIVED'} ${site.file.replace('packages/server/src/', '')}:${site.line} ${site.label.slice(0, 90)} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
}
const share = (kind: Site['kind'][]) => {
  const of = results.filter((result) => kind.includes(result.site.kind));
  const count = of.filter((result) => result.caught).length;
  return `${count} of ${of.length} (${of.length ? ((100 * count) / of.length).toFixed(0) : '–'} %)`;
};
console.log(`\ndeletions caught: ${share(['entry', 'alternative'])}`);
console.log(`weight changes caught: ${share(['weight'])}`);
console.log(`all mutations caught: ${share(['entry', 'alternative', 'weight'])}`);
