import { APIConnectionError, Engram, PermissionDeniedError } from '@engram/client';
import { Document } from '@langchain/core/documents';
import { RunnableLambda } from '@langchain/core/runnables';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngramContextMetadata, EngramMemoryMetadata } from '../src/index.js';
import { EngramRetriever } from '../src/index.js';
import { closedPortUrl, freshSpace, learned, recordingClient, serverUrl } from './helpers/server.js';

const mira = freshSpace('mira');
const oskar = freshSpace('oskar');
const { client } = recordingClient();

beforeAll(async () => {
  for (const text of [
    'Mira keeps two beehives on the roof of her flat in Leeds.',
    'Mira is allergic to shellfish.',
    "Mira's brother Tobias teaches chemistry at a school in York.",
  ]) {
    await client.memories.add({ text, space: mira });
  }
  await client.memories.add({ text: 'Oskar is allergic to birch pollen.', space: oskar });
  await learned(client, mira);
  await learned(client, oskar);
});

describe('EngramRetriever', { timeout: 30_000 }, () => {
  it("ranks the learned fact first, as Documents carrying the memory's metadata", async () => {
    const retriever = new EngramRetriever({ client, space: mira });
    const documents = await retriever.invoke('What is Mira allergic to?');
    expect(documents.length).toBeGreaterThan(0);
    const [first] = documents as Document<EngramMemoryMetadata>[];
    expect(first).toBeInstanceOf(Document);
    expect(first!.pageContent).toMatch(/Mira is allergic to shellfish/);
    expect(first!.metadata).toEqual({
      memory_id: expect.any(Number),
      kind: expect.stringMatching(/^(people|plan|pref|detail)$/),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      source_id: expect.stringMatching(/^src_/),
      source_kind: 'note',
      source_title: null,
      score: expect.any(Number),
      rank: 1,
    });
    expect(Number.isInteger(first!.metadata.memory_id)).toBe(true);
    expect(first!.id).toBe(String(first!.metadata.memory_id));
    expect(first!.metadata.score).toBeGreaterThan(0);
    expect(first!.metadata.score).toBeLessThanOrEqual(1);
    // The id leads back to the memory, and ranks count up in order of score.
    const { memory } = await client.memories.get(first!.metadata.memory_id, { space: mira });
    expect(memory.text).toBe(first!.pageContent);
    const metadata = documents.map((document) => document.metadata as EngramMemoryMetadata);
    expect(metadata.map((entry) => entry.rank)).toEqual(metadata.map((_, index) => index + 1));
    for (let index = 1; index < metadata.length; index++) expect(metadata[index]!.score).toBeLessThanOrEqual(metadata[index - 1]!.score);
  });

  it("sends k and kind to Engram's search", async () => {
    const { client: recording, to } = recordingClient();
    const retriever = new EngramRetriever({ client: recording, space: mira, k: 1, kind: 'people' });
    const documents = await retriever.invoke('Who is Tobias?');
    expect(to('POST', '/v1/search').map((call) => call.body)).toEqual([{ q: 'Who is Tobias?', limit: 1, kind: 'people', space: mira }]);
    expect(documents.length).toBeLessThanOrEqual(1);
    for (const document of documents) expect((document.metadata as EngramMemoryMetadata).kind).toBe('people');
  });

  it("never shows one user's memories to another user's retriever", async () => {
    const oskars = new EngramRetriever({ client, space: oskar });
    const documents = await oskars.invoke('What is Mira allergic to? shellfish beehives Leeds');
    expect(documents.map((document) => document.pageContent).join('\n')).not.toMatch(/Mira|shellfish|beehive/);
    const own = await oskars.invoke('What is Oskar allergic to?');
    expect(own[0]!.pageContent).toMatch(/birch pollen/);
  });

  it("with a key limited to one user, reads that user's memories and is refused another's", async () => {
    const { key } = await client.keys.create({ space: mira, name: 'mira phone' });
    const limited = new Engram({ apiKey: key, baseURL: serverUrl(), logger: null, maxRetries: 0 });
    const own = await new EngramRetriever({ client: limited }).invoke('What is Mira allergic to?');
    expect(own[0]!.pageContent).toMatch(/shellfish/);
    await expect(new EngramRetriever({ client: limited, space: oskar }).invoke('pollen')).rejects.toSatisfy((error) =>
      PermissionDeniedError.isInstance(error),
    );
  });

  it('in context mode gives one Document holding the prompt-ready block', async () => {
    const retriever = new EngramRetriever({ client, space: mira, mode: 'context', k: 3 });
    const documents = await retriever.invoke('What is Mira allergic to?');
    expect(documents).toHaveLength(1);
    const [block] = documents as Document<EngramContextMetadata>[];
    expect(block!.pageContent.split('\n')[0]).toMatch(/^- Mira is allergic to shellfish\.?\s+\[note, \d{1,2} [A-Z][a-z]+ \d{4}\]$/);
    expect(block!.metadata.mode).toBe('context');
    expect(block!.metadata.empty).toBe(false);
    expect(block!.metadata.memory_ids.length).toBeGreaterThan(0);
    expect(block!.metadata.memory_ids.length).toBeLessThanOrEqual(3);

    const nothing = await new EngramRetriever({ client, space: freshSpace('new'), mode: 'context' }).invoke('What is Mira allergic to?');
    expect(nothing).toEqual([
      new Document({
        pageContent: 'There is nothing stored about this yet. Say so rather than guessing.',
        metadata: { mode: 'context', empty: true, memory_ids: [] },
      }),
    ]);
  });

  it('throws when Engram cannot be reached, and answers without memory behind withFallbacks', async () => {
    const down = new Engram({
      apiKey: 'egk_unused_key_0123456789abcdefghijklmnopqr',
      baseURL: await closedPortUrl(),
      logger: null,
      maxRetries: 0,
    });
    const retriever = new EngramRetriever({ client: down, space: mira });
    await expect(retriever.invoke('anything')).rejects.toSatisfy((error) => APIConnectionError.isInstance(error));
    const failOpen = retriever.withFallbacks([RunnableLambda.from(async () => [])]);
    expect(await failOpen.invoke('anything')).toEqual([]);
  });
});
