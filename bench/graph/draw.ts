/**
 * Draws docs/graph.svg and docs/graph.html: the graph of the three-session conversation the
 * people tests use (packages/server/test/fixtures/people-conversation.ts), learned by a real
 * server and drawn by `engram graph` through the API.
 *
 *   npx tsx bench/graph/draw.ts
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawGraph } from '../../packages/server/src/brief/run-graph.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';
import { sessions } from '../../packages/server/test/fixtures/people-conversation.js';

const docs = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs');
const key = 'egk_bench_draw_0123456789abcdef0';
const server = await startServer(
  loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: 'memory://', ENGRAM_BOOTSTRAP_KEY: key, ENGRAM_POLL_MS: '20' }),
  { announceKey: () => {} },
);
const call = async (method: string, path: string, body?: unknown) =>
  (await (
    await fetch(server.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json()) as any;

for (const [index, messages] of sessions.entries()) {
  const saved = await call('POST', '/v1/memories', { space: 'maya', title: `Catch-up ${index + 1}`, messages });
  await call('GET', `/v1/sources/${saved.source.id}?wait=60&space=maya`);
}
for (const format of ['svg', 'html']) {
  const drawn = await drawGraph({ space: 'maya', out: resolve(docs, `graph.${format}`), baseUrl: server.url, apiKey: key });
  console.log(`docs/graph.${format}: ${drawn.nodes} nodes, ${drawn.edges} edges`);
}
await server.close();
