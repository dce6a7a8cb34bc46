/**
 * Latency of GET /v1/graph over a space of about 1,000 memories naming people, places and
 * organisations, on the embedded store (PGlite), through the HTTP API of a real server.
 *
 *   npx tsx bench/graph/graph.ts      # BENCH_MEMORIES (default 1000), BENCH_CALLS (default 50)
 */
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';

const target = Number(process.env.BENCH_MEMORIES ?? 1000);
/** Notes saved: some teach nothing new (a later job replaces an earlier one), so more notes than memories. */
const notes = Math.ceil(target * 1.3);
const calls = Number(process.env.BENCH_CALLS ?? 50);
const key = 'egk_bench_graph_0123456789abcdef0';
const server = await startServer(
  loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_DATA_DIR: process.env.BENCH_DATA_DIR ?? 'memory://',
    ENGRAM_BOOTSTRAP_KEY: key,
    ENGRAM_POLL_MS: '20',
    ENGRAM_ACCOUNT_RPM: '1000000',
  }),
  { announceKey: () => {} },
);
const call = async (method: string, path: string, body?: unknown) =>
  (await (
    await fetch(server.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'X-Memory-Space': 'bench' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json()) as any;

const people =
  'Ana Bruno Carla Diego Elena Farid Greta Hugo Ines Jonas Kira Lars Maya Nadia Omar Priya Quinn Rosa Sven Tariq Ursula Viktor Wanda Xavier Yara Zoe Aisha Boris Chloe Dmitri'.split(
    ' ',
  );
const places =
  'Lisbon Porto Berlin Hamburg Madrid Seville Oslo Bergen Dublin Galway Leeds York Vienna Prague Krakow Naples Lyon Toulouse Bruges Zurich'.split(
    ' ',
  );
const orgs = [
  'Northwind Labs',
  'Globex Corporation',
  'Initech',
  'Harbour Robotics',
  'Riverside Bakery',
  'Umbrella Health',
  'Contoso Pharma',
  'Azulejo Studio',
  'Hooli',
  'Acme Robotics',
];
const templates = [
  (a: string, b: string, place: string) => `${a} met ${b} in ${place}.`,
  (a: string, b: string, place: string) => `${a} visited ${place} with ${b}.`,
  (a: string, b: string, _place: string, org: string) => `${a} works at ${org} with ${b}.`,
  (a: string, b: string, place: string) => `${a} and ${b} went hiking near ${place}.`,
  (a: string, _b: string, place: string, org: string) => `${a} joined ${org} in ${place}.`,
];
// A fixed walk over every pair of people (then again with the next template), so every run
// stores the same sentences, each once.
const sentences = new Set<string>();
for (let round = 0; sentences.size < notes && round < templates.length; round++) {
  for (let first = 0; first < people.length && sentences.size < notes; first++) {
    for (let second = 0; second < people.length && sentences.size < notes; second++) {
      if (first === second) continue;
      const template = templates[(first + second + round) % templates.length]!;
      sentences.add(
        template(people[first]!, people[second]!, places[(first + second * 3) % places.length]!, orgs[(first * 2 + second) % orgs.length]!),
      );
    }
  }
}
const started = performance.now();
// A kept data directory (BENCH_DATA_DIR) that already holds the space is measured as it is.
const texts = (await call('GET', '/v1/memories?limit=1')).counts.all > 0 ? [] : [...sentences];
const sources: string[] = [];
for (let start = 0; start < texts.length; start += 100) {
  const reply = await call('POST', '/v1/memories/batch', { items: texts.slice(start, start + 100).map((text) => ({ text })) });
  for (const row of reply.results ?? reply.items ?? []) if (row.ok) sources.push(row.source.id);
}
for (const id of sources) await call('GET', `/v1/sources/${id}?wait=60`);
const memories = (await call('GET', '/v1/memories?limit=1')).counts.all;
process.stderr.write(
  `learned ${memories} memories from ${sources.length} notes in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

for (let warm = 0; warm < 5; warm++) await call('GET', '/v1/graph?limit=1000');
const percentiles = (latencies: number[], cpu: number[]) => {
  latencies.sort((left, right) => left - right);
  cpu.sort((left, right) => left - right);
  const at = (list: number[], share: number) => Number(list[Math.min(list.length - 1, Math.floor(share * list.length))]!.toFixed(1));
  return { median_ms: at(latencies, 0.5), p95_ms: at(latencies, 0.95), cpu_median_ms: at(cpu, 0.5), cpu_p95_ms: at(cpu, 0.95) };
};
/**
 * The time of one call, and the CPU time this process spent on it: the server, its embedded
 * store and the client all run here, so on a machine shared with other work the CPU time is
 * what the call costs, where the wall time also counts waiting for a core.
 */
const timed = async <T>(run: () => Promise<T>, wall: number[], cpu: number[]): Promise<T> => {
  const usage = process.cpuUsage();
  const begun = performance.now();
  const result = await run();
  wall.push(performance.now() - begun);
  const spent = process.cpuUsage(usage);
  cpu.push((spent.user + spent.system) / 1000);
  return result;
};
// Asked again of an unchanged space: the graph kept for the space's memory version is reused.
const again: number[] = [];
const againCpu: number[] = [];
let shape = { nodes: 0, edges: 0 };
for (let index = 0; index < calls; index++) {
  const graph = await timed(() => call('GET', '/v1/graph?limit=1000'), again, againCpu);
  shape = { nodes: graph.nodes.length, edges: graph.edges.length };
}
// After a change: one memory deleted before each call, so every call reads and indexes the space anew.
const listed = (await call('GET', `/v1/memories?limit=${Math.min(200, calls)}`)).memories as { id: number }[];
const changed: number[] = [];
const changedCpu: number[] = [];
for (const memory of listed.slice(0, calls)) {
  await call('DELETE', `/v1/memories/${memory.id}`);
  await timed(() => call('GET', '/v1/graph?limit=1000'), changed, changedCpu);
}
// A call that reads no memories, for what any keyed call costs (key, rate limit, usage headers).
const baseline: number[] = [];
const baselineCpu: number[] = [];
for (let index = 0; index < calls; index++) await timed(() => call('GET', '/v1/keys'), baseline, baselineCpu);
console.log(
  JSON.stringify({
    memories,
    nodes: shape.nodes,
    edges: shape.edges,
    calls,
    unchanged: percentiles(again, againCpu),
    after_a_change: percentiles(changed, changedCpu),
    any_keyed_call: percentiles(baseline, baselineCpu),
  }),
);
await server.close();
