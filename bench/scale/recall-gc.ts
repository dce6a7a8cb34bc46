/**
 * Recall on a large space and what it leaves to the garbage collector: search and context on a
 * copy of a filled store (`serve-memory.ts fill`), in this process, with the latencies, the
 * process's CPU a call, the main thread's collections (count and pause, minor and major) and the
 * bytes the main thread allocated a call, read from V8's own trace of each collection. Meant for
 * comparing builds back to back on one store (docs/benchmarks.md, "Recall at 100k: what each call
 * allocates"); the answers can be written out to check that two builds rank alike.
 *
 *   npm run build
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/serve-memory.ts fill /tmp/space-100k
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/recall-gc.ts \
 *     --store /tmp/space-100k [--dist packages/server/dist] [--calls 300] [--results FILE] [--profile DIR]
 *
 * `--profile DIR` writes a CPU profile of the main thread for each phase alone (`search.cpuprofile`,
 * `context.cpuprofile`): the copy's build and the warm-up are left out.
 *
 * The measuring runs in a child process of this script, which V8's trace (`--trace-gc-nvp`, turned
 * on once the server has started) writes to; the parent reads it.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { percentiles, round } from '../common/figures.js';
import { questions } from './generated.js';
import { SCALE_KEY, serveCopy } from './on-copy.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: '/tmp/space-100k' },
    dist: { type: 'string', default: 'packages/server/dist' },
    calls: { type: 'string', default: '300' },
    results: { type: 'string' },
    profile: { type: 'string' },
    child: { type: 'boolean', default: false },
  },
});
const PATHS = ['/v1/search', '/v1/context'] as const;

if (!values.child) {
  // The parent: runs the child and reads V8's trace of the child's main thread from its output.
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2), '--child'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`the measuring process ended with ${code}`);
  const lines = output.split('\n');
  // The main thread is the isolate the measuring phases' collections come from most.
  const isolateOf = (line: string) => /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
  const counts = new Map<string, number>();
  for (const line of lines) if (line.includes(' gc=s ')) counts.set(isolateOf(line)!, (counts.get(isolateOf(line)!) ?? 0) + 1);
  const main = [...counts].sort((left, right) => right[1] - left[1])[0]?.[0];
  let phase: string | null = null;
  const allocated = new Map<string, number>();
  const traced = new Map<string, number>();
  for (const line of lines) {
    const marker = /^PHASE (start|end) (\S+)/.exec(line);
    if (marker) phase = marker[1] === 'start' ? marker[2]! : null;
    else if (phase && isolateOf(line) === main) {
      const bytes = / allocated=(\d+)/.exec(line);
      if (bytes) allocated.set(phase, (allocated.get(phase) ?? 0) + Number(bytes[1]));
      if (bytes) traced.set(phase, (traced.get(phase) ?? 0) + 1);
    } else if (line.startsWith('RESULT ')) {
      const figures = JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown> & { path: string; calls: number };
      const perCall = (allocated.get(figures.path) ?? 0) / figures.calls / 1_024;
      // tracedCollections should be the phase's minor and major counts: V8's trace and the markers kept their order.
      console.log(
        JSON.stringify({ ...figures, allocatedKbPerCall: Math.round(perCall), tracedCollections: traced.get(figures.path) ?? 0 }),
      );
    }
  }
  process.exit(0);
}

// The child: the server on a copy of the store, in this process.
const calls = Number(values.calls);
const { server, remove } = await serveCopy(values.dist, values.store, 'recall-gc', { ENGRAM_ACCOUNT_RPM: '1000000' });
const call = async (path: string, body: Record<string, unknown>) => {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SCALE_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, space: 'scale' }),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
};
// The first search builds the server's copy of the space's index; then a few to warm up.
await call('/v1/search', { q: 'warm up' });
await new Promise((done) => setTimeout(done, 3_000));
for (let index = 0; index < 60; index++) await call('/v1/search', { q: questions()[index % 4]! });

/** The main thread's collections while a phase runs: count and pause, by kind (minor, major). */
const collections = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
let measuring = false;
new PerformanceObserver((list) => {
  if (!measuring) return;
  for (const entry of list.getEntries()) {
    // perf_hooks' kinds: 1 minor (scavenge), 2 major; 4 incremental marking, 8 weak callbacks.
    const kind = (entry as unknown as { detail: { kind: number } }).detail.kind === 1 ? collections.minor : collections.major;
    kind.count += 1;
    kind.ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
setFlagsFromString('--trace-gc --trace-gc-nvp');

const answers: string[] = [];
const session = values.profile ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
}
for (const path of PATHS) {
  if (session) await session.post('Profiler.start');
  const times: number[] = [];
  collections.minor = { count: 0, ms: 0 };
  collections.major = { count: 0, ms: 0 };
  console.log(`PHASE start ${path}`);
  measuring = true;
  const cpu = process.cpuUsage();
  for (let index = 0; index < calls; index++) {
    const question = questions()[index % 4]!;
    const started = performance.now();
    const answer = await call(path, path === '/v1/search' ? { q: question } : { question });
    times.push(performance.now() - started);
    if (values.results) answers.push(JSON.stringify(answer));
  }
  const used = process.cpuUsage(cpu);
  measuring = false;
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(values.profile!, `${path.slice('/v1/'.length)}.cpuprofile`), JSON.stringify(profile));
  }
  console.log(`PHASE end ${path}`);
  const { p50, p95, p99 } = percentiles(times);
  console.log(
    `RESULT ${JSON.stringify({
      path,
      calls,
      p50: round(p50),
      p95: round(p95),
      p99: round(p99),
      cpuMsPerCall: round((used.user + used.system) / 1_000 / calls),
      minor: { count: collections.minor.count, ms: Math.round(collections.minor.ms) },
      major: { count: collections.major.count, ms: Math.round(collections.major.ms) },
    })}`,
  );
}
if (values.results) await writeFile(values.results, answers.join('\n'));
await server.close();
await remove();
process.exit(0);
