/**
 * Two builds' recall on a large space in one process, their calls alternating: the CPU a call of
 * each (the process's, all threads: the main thread, the store's and the collector's), so that
 * the machine's load, which sways CPU figures taken minutes apart by 10 to 30 % on a shared
 * 2-core machine, falls on both builds alike (docs/benchmarks.md, "Search's CPU at 100k").
 * Each build runs its own server (its own store thread) on its own copy of the store; each round
 * asks both the same generated question, in turn first.
 *
 *   npm run build
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/serve-memory.ts fill /tmp/space-100k
 *   TSX_TSCONFIG_PATH=bench/tsconfig.json node --import tsx bench/scale/recall-ab.ts \
 *     --a /tmp/old/dist --b packages/server/dist [--store /tmp/space-100k] [--calls 1500]
 *
 * `recall()` is called directly (search's options: no judgement), without HTTP.
 */
import { parseArgs } from 'node:util';
import { questions } from './generated.js';
import { serveCopy } from './on-copy.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: '/tmp/space-100k' },
    a: { type: 'string' },
    b: { type: 'string', default: 'packages/server/dist' },
    calls: { type: 'string', default: '1500' },
  },
});

/** A build's server on a copy of the store, and its recall. */
async function start(distPath: string) {
  const { server, dist, remove } = await serveCopy(distPath, values.store, 'recall-ab');
  const { recall } = (await import(`${dist}/recall/search.js`)) as typeof import('../../packages/server/dist/recall/search.js');
  const scope = { accountId: 1, space: 'scale' };
  const ask = (question: string) => recall(server.store.db, scope, question, { limit: 10, kind: 'all', judge: false, now: new Date() });
  // The first search builds the server's copy of the space's index.
  await ask('warm up');
  return { server, remove, ask };
}

if (!values.a) throw new Error('--a: the dist directory of the build to compare against');
const a = await start(values.a);
const b = await start(values.b);
await new Promise((done) => setTimeout(done, 4_000));
for (let index = 0; index < 100; index++) {
  const question = questions()[index % 4]!;
  await a.ask(question);
  await b.ask(question);
}
const used = [0, 0];
const calls = Number(values.calls);
for (let index = 0; index < calls; index++) {
  const question = questions()[index % 4]!;
  for (const build of index % 2 ? [a, b] : [b, a]) {
    const cpu = process.cpuUsage();
    await build.ask(question);
    const spent = process.cpuUsage(cpu);
    used[build === a ? 0 : 1]! += spent.user + spent.system;
  }
}
console.log(
  JSON.stringify({
    aCpuMsPerCall: +(used[0]! / 1_000 / calls).toFixed(3),
    bCpuMsPerCall: +(used[1]! / 1_000 / calls).toFixed(3),
    bOverA: +(used[1]! / used[0]!).toFixed(3),
  }),
);
await a.server.close();
await b.server.close();
await a.remove();
await b.remove();
process.exit(0);
