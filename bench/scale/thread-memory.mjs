/**
 * A measuring hook for `node --import bench/scale/thread-memory.mjs packages/server/dist/cli.js serve`
 * (bench/scale/serve-memory.ts --threads): worker threads inherit the flag, so it runs in every
 * thread of the process, the store's and the learner's included. Each second it writes one line
 * to stderr per thread: its V8 heap (used, total, the young generation's and the old one's sizes),
 * the external and ArrayBuffer memory V8 knows of, and the WebAssembly memories the thread made
 * (PGlite's), all in MB. Nothing of the server is changed. On SIGUSR2 the main thread collects
 * its garbage in full and logs what is still in use (`thread-memory-live`); with
 * THREAD_MEMORY_SNAPSHOT=DIR set it also writes a heap snapshot there.
 */
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread, threadId } from 'node:worker_threads';

const memories = [];
const { instantiate, Memory } = WebAssembly;
const keep = (memory) => {
  if (memory instanceof Memory) memories.push(new WeakRef(memory));
};
WebAssembly.instantiate = async function (...args) {
  const made = await instantiate.apply(this, args);
  const instance = made instanceof WebAssembly.Instance ? made : made.instance;
  for (const value of Object.values(instance.exports)) keep(value);
  return made;
};
// A class, so that `new WebAssembly.Memory(…)` (Emscripten's, PGlite's) still constructs.
WebAssembly.Memory = class extends Memory {
  constructor(descriptor) {
    super(descriptor);
    keep(this);
  }
};

const mb = (bytes) => Math.round((bytes / 1_048_576) * 10) / 10;
const started = Date.now();
const timer = setInterval(() => {
  const heap = getHeapStatistics();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]));
  const usage = process.memoryUsage();
  const wasm = memories.map((ref) => ref.deref()).filter(Boolean);
  const line = {
    thread: threadId,
    main: isMainThread,
    seconds: Math.round((Date.now() - started) / 1_000),
    heapUsed: mb(heap.used_heap_size),
    heapTotal: mb(heap.total_heap_size),
    heapPhysical: mb(heap.total_physical_size),
    heapLimit: mb(heap.heap_size_limit),
    newSpace: mb(spaces.new_space ?? 0),
    oldSpace: mb(spaces.old_space ?? 0),
    codeSpace: mb(spaces.code_space ?? 0),
    largeObjects: mb(spaces.large_object_space ?? 0),
    external: mb(heap.external_memory),
    arrayBuffers: mb(usage.arrayBuffers),
    wasm: mb(wasm.reduce((sum, memory) => sum + memory.buffer.byteLength, 0)),
  };
  process.stderr.write(`thread-memory ${JSON.stringify(line)}\n`);
}, 1_000);
timer.unref();

if (isMainThread) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  process.on('SIGUSR2', () => {
    const before = getHeapStatistics().used_heap_size;
    gc();
    const after = getHeapStatistics();
    const snapshot = process.env.THREAD_MEMORY_SNAPSHOT
      ? writeHeapSnapshot(undefined, { dir: process.env.THREAD_MEMORY_SNAPSHOT })
      : undefined;
    process.stderr.write(
      `thread-memory-live ${JSON.stringify({ before: mb(before), live: mb(after.used_heap_size), heapTotal: mb(after.total_heap_size), snapshot })}\n`,
    );
  });
}
