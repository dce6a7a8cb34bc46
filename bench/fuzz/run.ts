/**
 * Contract fuzzing at length: 10,000 requests (FUZZ_CASES) generated from the OpenAPI document
 * of a real Engram (in memory, PGlite), valid and invalid, each checked: below 500, the JSON
 * error shape with the request id, nothing stored changed by a refused call. Prints the cases,
 * the endpoints covered and every failure.
 *
 *   npm run bench:fuzz                     (10,000 cases, seed 14)
 *   FUZZ_CASES=2000 FUZZ_SEED=7 npm run bench:fuzz
 *   FUZZ_STORE=postgres npm run bench:fuzz (a fresh database on ENGRAM_TEST_DATABASE_URL's server)
 */
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';
import { documentedOperations, fuzzContract, prepareTarget } from '../../packages/server/test/fuzz/contract.js';
import { freshStore } from '../common/fresh-store.js';

const KEY = 'egk_bench_fuzz_0123456789abcdefghijklmnop';
const CASES = Number(process.env.FUZZ_CASES ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 14);
/** The embedded store in memory (the default), or a fresh PostgreSQL database. */
const postgres = process.env.FUZZ_STORE === 'postgres' ? await freshStore('postgres', 'fuzz') : null;

const server = await startServer(
  loadConfig({
    ENGRAM_PORT: '0',
    ...(postgres?.env ?? { ENGRAM_DATA_DIR: process.env.FUZZ_DATA_DIR ?? 'memory://' }),
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_WORKERS: '0',
    ENGRAM_MAX_BODY_BYTES: String(1024 * 1024),
    ENGRAM_UPLOAD_MAX_BYTES: '65536',
    ENGRAM_ACCOUNT_RPM: '1000000',
  }),
);
// The server's own log lines (500s) go to stderr; the report goes to stdout.
try {
  const target = await prepareTarget(server.url, KEY, server.store.db);
  const document = await (await fetch(`${server.url}/v1/openapi.json`)).json();
  const started = Date.now();
  const run = await fuzzContract(document, target, {
    count: CASES,
    seed: SEED,
    onProgress: (done, failures) => {
      if (done % 250 === 0) process.stderr.write(`  ${done}/${CASES} cases, ${failures} failures\n`);
    },
  });
  const documented = documentedOperations(document);
  const grouped = new Map<string, { count: number; example: string }>();
  for (const failure of run.failures) {
    const kind = failure.failure.replace(/req_\w+/g, 'req_…').slice(0, 160);
    const entry = grouped.get(kind) ?? { count: 0, example: failure.request };
    entry.count++;
    grouped.set(kind, entry);
  }
  process.stdout.write(
    `cases: ${run.cases} (seed ${SEED}, ${postgres ? 'PostgreSQL' : 'embedded store'}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
  );
  process.stdout.write(`endpoints covered: ${run.operations.size} of ${documented.length}\n`);
  const missing = documented.filter((operation) => !run.operations.has(operation));
  if (missing.length) process.stdout.write(`  not reached: ${missing.join(', ')}\n`);
  const neverAccepted = documented.filter((operation) => !run.accepted.has(operation));
  process.stdout.write(`endpoints with an accepted (2xx) answer: ${documented.length - neverAccepted.length} of ${documented.length}\n`);
  if (neverAccepted.length) process.stdout.write(`  never accepted: ${neverAccepted.join(', ')}\n`);
  process.stdout.write(
    `statuses: ${[...run.statuses.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')}\n`,
  );
  process.stdout.write(`failures: ${run.failures.length}\n`);
  for (const [kind, entry] of grouped) process.stdout.write(`  ${entry.count}× ${kind}\n     e.g. ${entry.example}\n`);
  process.exitCode = run.failures.length ? 1 : 0;
} finally {
  await server.close();
  await postgres?.remove();
}
