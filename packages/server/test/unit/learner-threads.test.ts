import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnableSource } from '../../src/learn/facts-of.js';
import { factsOf } from '../../src/learn/facts-of.js';
import type { Learner } from '../../src/learn/pool.js';
import { extractDocument } from '../../src/read/extract-document.js';
import { parsePage } from '../../src/read/read-page.js';
import { UnreadableError } from '../../src/read/unreadable.js';
import { buildDocx, buildPdf } from '../fixtures/documents.js';

// The learner threads run the built learner (dist/learn/thread.js): the same facts as the
// learner on the calling thread, for conversations, long notes and a file's partly blank body,
// and the same text of PDF and Word files.
const built = fileURLToPath(new URL('../../dist/learn/pool.js', import.meta.url));
let pool: Learner;

beforeAll(async () => {
  if (!existsSync(built)) throw new Error(`Build first (npm run build): ${built} is missing`);
  const { learnerFor } = (await import(built)) as typeof import('../../src/learn/pool.js');
  pool = learnerFor(2);
});

afterAll(async () => {
  await pool?.close();
});

/** The nice value of each of this process's threads (Linux: field 19 of its stat, after the name in brackets). */
function threadNices(): number[] {
  const nices: number[] = [];
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      nices.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nices;
}
const ownNice = () => {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

const writtenAt = new Date('2026-11-22T12:00:00Z');
const conversation: LearnableSource = {
  kind: 'conversation',
  body: null,
  written_at: writtenAt,
  messages: [
    { role: 'user', name: 'Ines', content: 'I moved to Porto last month. My brother Rui is a nurse.', at: '2026-11-20T10:00:00Z' },
    {
      role: 'user',
      name: 'Tom',
      content: 'Nice! Have you seen my new puppy, Rex? [shares: a photo of a beagle on a sofa]',
      at: '2026-11-20T10:01:00Z',
    },
  ],
};
const paragraph = (index: number) => `Lotte restored clock number ${index} in Ghent last week. She sold it to a museum in Bruges.`;
const longNote: LearnableSource = {
  kind: 'note',
  messages: null,
  written_at: writtenAt,
  body: Array.from({ length: 200 }, (_, index) => paragraph(index + 1)).join('\n'),
};
const fileBody: LearnableSource = {
  kind: 'file',
  messages: null,
  written_at: writtenAt,
  body: `${' '.repeat(5_000)}\n${paragraph(7)}\n${' '.repeat(3_000)}`,
};

describe('learner threads', () => {
  it('run from the built server', () => {
    expect(pool.threads).toBe(2);
  });

  it('learn exactly what the calling thread learns, sources side by side', async () => {
    const sources = [conversation, longNote, fileBody];
    const threaded = await Promise.all(sources.map((source) => pool.learn(source)));
    for (const [index, source] of sources.entries()) {
      const here = await factsOf(source);
      expect(threaded[index]).toEqual(here);
    }
    expect(threaded[0]!.facts.map((fact) => fact.text)).toEqual(expect.arrayContaining(['Ines moved to Porto in October 2026.']));
    expect(threaded[1]!.facts.length).toBeGreaterThanOrEqual(200);
    expect(threaded[2]!.facts[0]!.sentence.start).toBe(5_001);
  });

  it('read PDF and Word files as the calling thread does, and a damaged one as unreadable', async () => {
    const pdf = new Uint8Array(buildPdf([['Tilda grows saffron in Zeeland.'], ['She sells it at the Middelburg market.']]));
    const docx = new Uint8Array(await buildDocx([{ heading: 1, text: 'Notes' }, 'Tilda grows saffron in Zeeland.']));
    for (const [kind, bytes] of [
      ['pdf', pdf],
      ['docx', docx],
    ] as const) {
      const threaded = await pool.parsers.document(kind, bytes);
      expect(threaded).toEqual(await extractDocument(kind, bytes));
      expect(threaded.text).toMatch(/saffron in Zeeland/);
    }
    const damaged = pool.parsers.document('pdf', new TextEncoder().encode('%PDF-1.7 this is not a PDF'));
    // An UnreadableError of the built server (a class of its own, apart from the sources').
    await expect(damaged).rejects.toMatchObject({ name: 'UnreadableError', permanent: true });
    await expect(extractDocument('pdf', new TextEncoder().encode('%PDF-1.7 this is not a PDF'))).rejects.toBeInstanceOf(UnreadableError);
  });

  it('parse fetched pages as the calling thread does', async () => {
    const html = new TextEncoder().encode(
      '<html><head><title>Saffron</title></head><body><nav>Home | About</nav><article><h1>Saffron</h1>' +
        '<p>Tilda grows saffron in Zeeland and sells it at the Middelburg market every Saturday morning.</p>' +
        '<p>Each autumn she picks the crocus flowers by hand before sunrise, when they are still closed.</p></article>' +
        '<footer>© 2026</footer></body></html>',
    );
    const threaded = await pool.parsers.page('html', html, 'utf-8');
    expect(threaded).toEqual(await parsePage('html', html, 'utf-8'));
    expect(threaded.text).toMatch(/Middelburg market/);
    expect(threaded.text).not.toMatch(/Home \| About/);
    const text = new TextEncoder().encode('Tilda grows saffron.');
    expect(await pool.parsers.page('text', text, null)).toEqual(await parsePage('text', text, null));
  });

  it('run at the scheduling priority they are given, and the calling thread keeps its own', async () => {
    const { learnerFor } = (await import(built)) as typeof import('../../src/learn/pool.js');
    const before = ownNice();
    expect(threadNices()).not.toContain(5);
    const niced = learnerFor(1, { nice: 5 });
    try {
      expect((await niced.learn(conversation)).facts.length).toBeGreaterThan(0);
      expect(threadNices()).toContain(5);
      expect(ownNice()).toBe(before);
    } finally {
      await niced.close();
    }
    // The pool above was given no priority: its threads keep the process's.
    expect(threadNices()).not.toContain(5);
  });

  it('fail one source that cannot be learned and keep learning the next', async () => {
    const broken = { ...conversation, messages: 'not messages' } as unknown as LearnableSource;
    await expect(pool.learn(broken)).rejects.toThrow();
    expect((await pool.learn(conversation)).facts.length).toBeGreaterThan(0);
  });
});

describe('the built server with a learner thread', () => {
  it('learns a conversation and reads an uploaded PDF on its thread', async () => {
    const { loadConfig } = (await import(
      fileURLToPath(new URL('../../dist/config.js', import.meta.url))
    )) as typeof import('../../src/config.js');
    const { startServer } = (await import(
      fileURLToPath(new URL('../../dist/server.js', import.meta.url))
    )) as typeof import('../../src/server.js');
    const key = 'egk_threads_0123456789abcdef0123';
    const server = await startServer(
      loadConfig({
        ENGRAM_PORT: '0',
        ENGRAM_DATA_DIR: 'memory://',
        ENGRAM_BOOTSTRAP_KEY: key,
        ENGRAM_POLL_MS: '20',
        ENGRAM_LEARNER_THREADS: '1',
        ENGRAM_LEARNER_NICE: '7',
      }),
      { announceKey: () => {} },
    );
    try {
      expect(server.learnerThreads).toBe(1);
      const headers = { Authorization: `Bearer ${key}` };
      const waitFor = async (id: string) =>
        (
          (await (await fetch(`${server.url}/v1/sources/${id}?wait=20`, { headers })).json()) as {
            source: { status: string; memories: number };
          }
        ).source;
      const saved = (await (
        await fetch(`${server.url}/v1/memories`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ messages: conversation.messages }),
        })
      ).json()) as { source: { id: string } };
      expect(await waitFor(saved.source.id)).toMatchObject({ status: 'finished' });
      // Its learner thread yields the CPU to the thread answering requests.
      expect(threadNices()).toContain(7);
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(buildPdf([['Tilda grows saffron in Zeeland.']]))], { type: 'application/pdf' }),
        'tilda.pdf',
      );
      const uploaded = (await (await fetch(`${server.url}/v1/memories/file`, { method: 'POST', headers, body: form })).json()) as {
        source: { id: string };
      };
      expect(await waitFor(uploaded.source.id)).toMatchObject({ status: 'finished', memories: 1 });
      const found = (await (
        await fetch(`${server.url}/v1/search`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ q: 'Where does Ines live? What does Tilda grow?' }),
        })
      ).json()) as { memories: { text: string }[] };
      const texts = found.memories.map((memory) => memory.text);
      expect(texts).toEqual(expect.arrayContaining(['Ines moved to Porto in October 2026.', 'Tilda grows saffron in Zeeland.']));
    } finally {
      await server.close();
    }
  }, 30_000);
});
