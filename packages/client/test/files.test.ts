// The server does not serve /v1/files yet (it answers 404 not_found): these tests check the
// exact requests with an injected fetch, and answers shaped and checked by the protocol schemas.
import {
  DeleteFilesResponseSchema,
  FileListResponseSchema,
  FileResponseSchema,
  MoveFilesResponseSchema,
  WriteFileResponseSchema,
} from '@engram/protocol';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../src/index.js';
import { expectRequest } from './helpers/expect-request.js';
import { fileRow, source } from './helpers/fixtures.js';
import { errorBody, fakeClient, json } from './helpers/recording-fetch.js';

describe('files (injected fetch: route not served yet)', () => {
  it('write: PUT /v1/files with path, text and labels, answering the file and its source', async () => {
    const answer = WriteFileResponseSchema.parse({
      path: '/notes/today.md',
      size: 8,
      updated_at: '2026-11-22T10:00:00.000Z',
      created: true,
      source: source({ kind: 'file', path: '/notes/today.md', title: '/notes/today.md' }),
    });
    const { engram, calls } = fakeClient(() => json(answer));
    const user = engram.forSpace('user-1');
    const written = await user.files.write({ path: '/notes/today.md', text: '# Today\n', labels: { team: 'core' } });
    expect(written).toEqual(answer);
    expectRequest(calls[0], {
      method: 'PUT',
      path: '/v1/files',
      body: { path: '/notes/today.md', text: '# Today\n', labels: { team: 'core' } },
      headers: { 'x-memory-space': 'user-1' },
    });
  });

  it('write with { wait: true } returns the file with its source learned', async () => {
    const answer = { path: '/a.md', size: 1, updated_at: '2026-11-22T10:00:00.000Z', created: false, source: source({ kind: 'file' }) };
    const learned = source({ kind: 'file', status: 'finished', memories: 2 });
    const { engram, calls } = fakeClient((request) => (request.method === 'PUT' ? json(answer) : json({ source: learned })));
    const written = await engram.files.write({ path: '/a.md', text: 'x', space: 'user-2' }, { wait: true });
    expect(written).toEqual({ ...answer, source: learned });
    expect(calls[1]!.url.pathname).toBe(`/v1/sources/${learned.id}`);
    expect(calls[1]!.url.searchParams.get('space')).toBe('user-2');
  });

  it('read: GET /v1/files?path=', async () => {
    const answer = FileResponseSchema.parse({
      path: '/a b.md',
      text: 'hello\r\n',
      size: 7,
      updated_at: '2026-11-22T10:00:00.000Z',
      labels: {},
    });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.files.read('/a b.md', { space: 'user-1' })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/files', query: { path: '/a b.md', space: 'user-1' } });
  });

  it('list: GET /v1/files?prefix= (default "/"), a page that iterates every file across pages', async () => {
    const pages = [
      FileListResponseSchema.parse({ files: [fileRow('/a'), fileRow('/b')], total: 3, next: 2 }),
      FileListResponseSchema.parse({ files: [fileRow('/c')], total: 3 }),
    ];
    const { engram, calls } = fakeClient((request) => json(pages[Number(request.url.searchParams.get('cursor')) === 0 ? 0 : 1]));
    const page = await engram.files.list({ limit: 2 });
    expect(page.files).toEqual(pages[0]!.files);
    expect(page.total).toBe(3);
    expectRequest(calls[0], { method: 'GET', path: '/v1/files', query: { prefix: '/', limit: '2', cursor: '0' } });

    const paths: string[] = [];
    for await (const file of engram.files.list({ prefix: '/', limit: 2 })) paths.push(file.path);
    expect(paths).toEqual(['/a', '/b', '/c']);
    expectRequest(calls.at(-1), { method: 'GET', path: '/v1/files', query: { prefix: '/', limit: '2', cursor: '2' } });
    await engram.files.list({ prefix: '/notes/' });
    expect(calls.at(-1)!.url.searchParams.get('prefix')).toBe('/notes/');
  });

  it('delete: DELETE /v1/files?path=', async () => {
    const answer = DeleteFilesResponseSchema.parse({ deleted: 1, path: '/a.md' });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.files.delete('/a.md')).toEqual(answer);
    expectRequest(calls[0], { method: 'DELETE', path: '/v1/files', query: { path: '/a.md' } });
  });

  it('deleteByPrefix: calls again while the server says more, and adds up what was deleted', async () => {
    const answers = [
      { deleted: 100, more: true },
      { deleted: 100, more: true },
      { deleted: 7, more: false },
    ];
    const { engram, calls } = fakeClient((_, index) => json(DeleteFilesResponseSchema.parse(answers[index])));
    expect(await engram.files.deleteByPrefix('/drafts/', { space: 'user-1' })).toEqual({ deleted: 207, more: false });
    expect(calls).toHaveLength(3);
    for (const call of calls) expectRequest(call, { method: 'DELETE', path: '/v1/files', query: { prefix: '/drafts/', space: 'user-1' } });
  });

  it('deleteByPrefix with { once: true } makes one call and returns more', async () => {
    const { engram, calls } = fakeClient(() => json({ deleted: 100, more: true }));
    expect(await engram.files.deleteByPrefix('/', { once: true })).toEqual({ deleted: 100, more: true });
    expect(calls).toHaveLength(1);
  });

  it('move: POST /v1/files/move with from and to; a taken target is a ConflictError', async () => {
    const { engram, calls } = fakeClient((_, index) =>
      index === 0
        ? json(MoveFilesResponseSchema.parse({ moved: 3 }))
        : json(errorBody('conflict', 'A file is at /b/x'), 409, { 'x-should-retry': 'false' }),
    );
    expect(await engram.files.move('/a', '/b')).toEqual({ moved: 3 });
    expectRequest(calls[0], { method: 'POST', path: '/v1/files/move', body: { from: '/a', to: '/b' } });
    await expect(engram.files.move('/a', '/b', { space: 'user-1' })).rejects.toBeInstanceOf(ConflictError);
    expectRequest(calls[1], { method: 'POST', path: '/v1/files/move', body: { from: '/a', to: '/b', space: 'user-1' } });
  });
});
