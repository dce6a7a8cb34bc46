import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMemories, call, expectError, freshSpace, waitLearned } from './helpers.js';

const NUL = 'a\u0000b';
const LONE = 'a\uD800b';

/** Sources and files of a space, to show that a refused call stored nothing. */
async function stored(space: string) {
  const sources = await call('GET', `/v1/sources?space=${encodeURIComponent(space)}`);
  const files = await call('GET', `/v1/files?prefix=/&space=${encodeURIComponent(space)}`);
  return { sources: sources.body.total, files: files.body.total };
}

describe('text that cannot be stored is refused at the edge', () => {
  it('answers 400 naming the field for a NUL or a lone surrogate in every text field, storing nothing', async () => {
    const space = freshSpace();
    const file = await call('PUT', '/v1/files', { body: { space, path: '/a.md', text: 'Zora bakes rye bread.' } });
    expect(file.status).toBe(200);
    const saved = await call('POST', '/v1/memories', { body: { space, text: 'Zora bakes rye bread every Friday.' } });
    const learned = await waitLearned(space, saved.body.source.id);
    await waitLearned(space, file.body.source.id);
    const memories = await allMemories(space);
    const memoryId = memories[0]!.id;
    const before = await stored(space);
    const message = (content: unknown, extra: Record<string, unknown> = {}) => ({ space, messages: [{ role: 'user', content, ...extra }] });
    for (const bad of [NUL, LONE]) {
      const cases: [string, string, Record<string, unknown>, string][] = [
        ['POST', '/v1/memories', { space, text: bad }, 'text'],
        ['POST', '/v1/memories', { space, text: 'fine', title: bad }, 'title'],
        ['POST', '/v1/memories', { space, url: `https://example.com/${bad}` }, 'url'],
        ['POST', '/v1/memories', message(bad), 'messages.0.content'],
        ['POST', '/v1/memories', message([{ type: 'text', text: bad }]), 'messages.0.content'],
        ['POST', '/v1/memories', message([{ type: 'text', text: 'ok', extra: bad }]), 'messages.0.content'],
        ['POST', '/v1/memories', message('fine', { name: bad }), 'messages.0.name'],
        ['POST', '/v1/memories', { space: `u${bad}`, text: 'fine' }, 'space'],
        ['PATCH', `/v1/memories/${memoryId}`, { space, text: bad }, 'text'],
        ['PUT', '/v1/files', { space, path: `/x${bad}.md`, text: 'fine' }, 'path'],
        ['PUT', '/v1/files', { space, path: '/b.md', text: bad }, 'text'],
        ['PUT', '/v1/files', { space, path: '/b.md', text: 'fine', labels: { [bad]: 'v' } }, 'labels'],
        ['PUT', '/v1/files', { space, path: '/b.md', text: 'fine', labels: { k: bad } }, 'labels.k'],
        ['POST', '/v1/files/move', { space, from: '/a.md', to: `/c${bad}.md` }, 'to'],
        ['POST', '/v1/search', { space, q: bad }, 'q'],
        ['POST', '/v1/context', { space, question: bad }, 'question'],
        ['POST', '/v1/ask', { space, question: bad }, 'question'],
        ['POST', '/v1/search', { space, q: 'bread', labels: { k: bad } }, 'labels.k'],
        ['POST', '/v1/keys', { space, name: bad }, 'name'],
        ['POST', '/v1/keys', { space, note: bad }, 'note'],
        ['POST', '/v1/keys', { space: `u${bad}` }, 'space'],
      ];
      for (const [method, path, body, field] of cases) {
        const reply = await call(method, path, { body });
        const error = expectError(reply, 400, 'invalid_request');
        // A content block names its own place: messages.0.content.0.text.
        expect(`${method} ${path} ${error.details.field}`).toMatch(`${method} ${path} ${field}`);
      }
    }
    // Query strings and path parameters.
    for (const path of [
      '/v1/sources/%00',
      `/v1/sources/${learned.id}%00`,
      `/v1/memories?space=u%00`,
      `/v1/files?space=${encodeURIComponent(space)}&path=/a%00.md`,
      `/v1/files?space=${encodeURIComponent(space)}&prefix=/%00`,
    ]) {
      const error = expectError(await call('GET', path), 400, 'invalid_request');
      expect(error.details.field).toMatch(/^(source_id|space|path|prefix)$/);
    }
    expectError(await call('DELETE', `/v1/files?space=${encodeURIComponent(space)}&path=/a%00.md`), 400, 'invalid_request');
    expect(await stored(space)).toEqual(before);
    expect(await allMemories(space)).toEqual(memories);
  });

  it('fails only the bad item of a batch', async () => {
    const space = freshSpace();
    const reply = await call('POST', '/v1/memories/batch', {
      body: {
        space,
        items: [
          { text: 'Pia runs the bakery on Elm Street.' },
          { text: NUL },
          { text: 'fine', title: LONE },
          { text: 'Pia sings in a choir.' },
        ],
      },
    });
    expect(reply.status).toBe(202);
    expect(reply.body.added).toBe(2);
    expect(reply.body.failed).toBe(2);
    expect(reply.body.results.map((row: { ok: boolean }) => row.ok)).toEqual([true, false, false, true]);
    expect(reply.body.results[1].error).toMatchObject({ type: 'invalid_request', details: { field: 'text' } });
    expect(reply.body.results[2].error).toMatchObject({ type: 'invalid_request', details: { field: 'title' } });
    expect((await stored(space)).sources).toBe(2);
  });
});

describe('space names', () => {
  it('refuses control characters, bidirectional marks and lone surrogates in the body, query and header', async () => {
    for (const name of ['user\n1', 'user\t1', 'user\u202E1', 'user\u2066x', 'user\u200F', 'user\u0085', 'a\uD800', 'a\u0000']) {
      const body = expectError(
        await call('POST', '/v1/memories', { body: { text: 'Ezra keeps goats.', space: name } }),
        400,
        'invalid_request',
      );
      expect(body.details.field).toBe('space');
      if (!(name as unknown as { isWellFormed(): boolean }).isWellFormed()) continue; // a URL cannot spell a lone surrogate
      const query = expectError(await call('GET', `/v1/memories?space=${encodeURIComponent(name)}`), 400, 'invalid_request');
      expect(query.details.field).toBe('space');
    }
    // A header can carry a tab or a C1 control byte: the same rule applies.
    for (const name of ['user\t1', Buffer.from('user\u202E1', 'utf8').toString('latin1')]) {
      const header = expectError(await call('GET', '/v1/memories', { space: name }), 400, 'invalid_request');
      expect(header.details.field).toBe('space');
    }
    // The lone surrogate is refused rather than becoming U+FFFD and sharing that space.
    const replacement = `a\uFFFD-${freshSpace()}`;
    expect((await call('POST', '/v1/memories', { body: { text: 'Ezra keeps goats.', space: replacement } })).status).toBe(201);
  });

  it('reads the header as UTF-8 and compares names in NFC, so header, body and query reach one space', async () => {
    const name = `café-${freshSpace()}`;
    const asHeaderBytes = Buffer.from(name, 'utf8').toString('latin1');
    const saved = await call('POST', '/v1/memories', { body: { text: 'Lena grows tomatoes on her balcony.' }, space: asHeaderBytes });
    expect(saved.status).toBe(201);
    await waitLearned(name, saved.body.source.id);
    expect((await allMemories(name)).map((memory) => memory.text)).toEqual(['Lena grows tomatoes on her balcony.']);
    // The same name decomposed (e + combining acute) is the same space.
    const decomposed = name.normalize('NFD');
    expect(decomposed).not.toBe(name);
    const listed = await call('GET', `/v1/memories?space=${encodeURIComponent(decomposed)}`);
    expect(listed.body.total).toBe(1);
    // Header and body naming the same space in different spellings agree.
    const agreeing = await call('GET', `/v1/memories?space=${encodeURIComponent(decomposed)}`, { space: asHeaderBytes });
    expect(agreeing.status).toBe(200);
    const spaces = await call('GET', '/v1/spaces?limit=200');
    expect(
      spaces.body.spaces.filter((row: { name: string }) => row.name.endsWith(name.slice(5))).map((row: { name: string }) => row.name),
    ).toEqual([name]);
  });

  it('honours a space in the query string of a POST like the body field', async () => {
    const space = freshSpace('query');
    const saved = await call('POST', `/v1/memories?space=${encodeURIComponent(space)}`, { body: { text: 'Omar restores old radios.' } });
    expect(saved.status).toBe(201);
    await waitLearned(space, saved.body.source.id);
    expect((await allMemories(space)).map((memory) => memory.text)).toEqual(['Omar restores old radios.']);
    const owner = await call('POST', '/v1/search', { body: { q: 'Who restores old radios?' } });
    expect(owner.body.memories.map((memory: { text: string }) => memory.text)).not.toContain('Omar restores old radios.');
    const disagree = expectError(
      await call('POST', `/v1/memories?space=${encodeURIComponent(space)}`, { body: { text: 'x', space: 'other' } }),
      400,
      'invalid_request',
    );
    expect(disagree.details.field).toBe('space');
    expectError(await call('POST', `/v1/memories?space=other`, { body: { text: 'x' }, space }), 400, 'invalid_request');
    const key = (await call('POST', '/v1/keys', { body: { space } })).body.key as string;
    expectError(await call('POST', '/v1/memories?space=elsewhere', { body: { text: 'x' }, key }), 403, 'permission_denied');
    const made = await call('POST', `/v1/keys?space=${encodeURIComponent(space)}`, { body: { name: 'from the query' } });
    expect(made.status).toBe(201);
    expect(made.body.space).toBe(space);
  });
});

describe('a fetched page holding NUL characters', () => {
  let site: Server;
  let base: string;
  beforeAll(async () => {
    site = createServer((_request, response) => {
      response
        .writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Greta builds\u0000 kayaks in Bergen.\n\nGreta\u0000 paddles to work every morning.\n');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  it('is learned without them', async () => {
    const space = freshSpace();
    const saved = await call('POST', '/v1/memories', { body: { space, url: `${base}/kayaks.txt` } });
    expect(saved.status).toBe(201);
    const source = await waitLearned(space, saved.body.source.id);
    expect(source.error).toBeNull();
    const texts = (await allMemories(space)).map((memory) => memory.text);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.join(' ')).toContain('kayaks');
    expect(texts.join(' ')).not.toContain('\u0000');
  });
});
