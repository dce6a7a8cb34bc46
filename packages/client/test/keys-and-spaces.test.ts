// The server does not serve /v1/keys, /v1/spaces or /v1/space yet (404 not_found): these tests
// check the exact requests with an injected fetch, and answers checked by the protocol schemas.
import {
  CreatedKeySchema,
  EraseSpaceResponseSchema,
  ListKeysResponseSchema,
  ListSpacesResponseSchema,
  RevokeKeyResponseSchema,
} from '@engram/protocol';
import { describe, expect, it } from 'vitest';
import { EngramError, PermissionDeniedError } from '../src/index.js';
import { expectRequest } from './helpers/expect-request.js';
import { keyOut, spaceRow } from './helpers/fixtures.js';
import { errorBody, fakeClient, json } from './helpers/recording-fetch.js';

describe('keys (injected fetch: route not served yet)', () => {
  it('create: POST /v1/keys for the scoped space; the key text comes back once', async () => {
    const answer = CreatedKeySchema.parse({ ...keyOut(), key: 'egs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd' });
    const { engram, calls } = fakeClient(() => json(answer, 201));
    const created = await engram.forSpace('user-1').keys.create({ name: 'phone', rpm: 60, expires_at: '2026-12-31' });
    expect(created).toEqual(answer);
    expectRequest(calls[0], {
      method: 'POST',
      path: '/v1/keys',
      body: { name: 'phone', rpm: 60, expires_at: '2026-12-31' },
      headers: { 'x-memory-space': 'user-1' },
    });
  });

  it('create by a limited key is a PermissionDeniedError', async () => {
    const { engram } = fakeClient(() => json(errorBody('permission_denied', 'Limited keys cannot make keys'), 403), {
      apiKey: 'egs_limited',
    });
    await expect(engram.keys.create({ space: 'user-1' })).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('list: GET /v1/keys', async () => {
    const answer = ListKeysResponseSchema.parse({ keys: [keyOut(), keyOut({ id: 4, name: null })] });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.keys.list({ space: 'user-1' })).toEqual(answer);
    expectRequest(calls[0], { method: 'GET', path: '/v1/keys', query: { space: 'user-1' } });
  });

  it('revoke: DELETE /v1/keys/{id}', async () => {
    const answer = RevokeKeyResponseSchema.parse({ id: 3, space: 'user-1', revoked: true });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.forSpace('user-1').keys.revoke(3)).toEqual(answer);
    expectRequest(calls[0], { method: 'DELETE', path: '/v1/keys/3', headers: { 'x-memory-space': 'user-1' } });
  });
});

describe('spaces (injected fetch: route not served yet)', () => {
  it('list: GET /v1/spaces, a page that iterates every space across pages', async () => {
    const pages: Record<string, unknown> = {
      0: ListSpacesResponseSchema.parse({ spaces: [spaceRow('a'), spaceRow('b')], total: 3, next: 2 }),
      2: ListSpacesResponseSchema.parse({ spaces: [spaceRow('c')], total: 3 }),
    };
    const { engram, calls } = fakeClient((request) => json(pages[request.url.searchParams.get('cursor')!]));
    const page = await engram.spaces.list({ limit: 2 });
    expect(page.spaces.map((space) => space.name)).toEqual(['a', 'b']);
    expectRequest(calls[0], { method: 'GET', path: '/v1/spaces', query: { limit: '2', cursor: '0' } });
    const names: string[] = [];
    for await (const space of engram.spaces.list({ limit: 2 })) names.push(space.name);
    expect(names).toEqual(['a', 'b', 'c']);
    expectRequest(calls.at(-1), { method: 'GET', path: '/v1/spaces', query: { limit: '2', cursor: '2' } });
  });

  it("erase: DELETE /v1/space?space=, or the scoped client's own space by header", async () => {
    const answer = EraseSpaceResponseSchema.parse({ space: 'user-1', erased: true });
    const { engram, calls } = fakeClient(() => json(answer));
    expect(await engram.spaces.erase('user-1')).toEqual(answer);
    expectRequest(calls[0], { method: 'DELETE', path: '/v1/space', query: { space: 'user-1' }, headers: { 'x-memory-space': null } });
    expect(await engram.forSpace('user-1').spaces.erase()).toEqual(answer);
    expectRequest(calls[1], { method: 'DELETE', path: '/v1/space', headers: { 'x-memory-space': 'user-1' } });
  });

  it("erase refuses, without calling, when no space is named (never the owner's memory by accident)", async () => {
    const { engram, calls } = fakeClient(() => json({}));
    await expect(engram.spaces.erase()).rejects.toBeInstanceOf(EngramError);
    await expect(engram.spaces.erase('  ')).rejects.toThrow(/Name the space/);
    expect(calls).toHaveLength(0);
  });
});
