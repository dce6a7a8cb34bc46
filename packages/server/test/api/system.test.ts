import { describe, expect, inject, it } from 'vitest';
import { call, expectError, freshSpace } from './helpers.js';

describe('the HTTP edge', () => {
  it('answers /healthz without a key, with a request id', async () => {
    const reply = await call('GET', '/healthz', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true });
    expect(reply.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{20}$/);
  });

  it('serves an OpenAPI 3.1 document of every route it serves, without a key', async () => {
    const reply = await call('GET', '/v1/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toBe('3.1.0');
    const paths = Object.keys(reply.body.paths);
    for (const path of [
      '/v1/memories',
      '/v1/memories/batch',
      '/v1/memories/{memory_id}',
      '/v1/sources',
      '/v1/sources/{source_id}',
      '/v1/search',
      '/v1/context',
      '/v1/ask',
    ]) {
      expect(paths).toContain(path);
    }
    expect(reply.body.paths['/v1/memories'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(reply.body.components.schemas.Memory.properties.kind.enum).toEqual(['people', 'plan', 'pref', 'detail']);
  });

  it('gives every request a different id', async () => {
    const first = await call('GET', '/healthz', { key: null });
    const second = await call('GET', '/healthz', { key: null });
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('refuses a call without a key, and with a wrong key, in the error shape', async () => {
    expectError(await call('GET', '/v1/memories', { key: null }), 401, 'authentication_error');
    expectError(await call('GET', '/v1/memories', { key: 'egk_not_a_real_key' }), 401, 'authentication_error');
    expectError(await call('GET', '/v1/memories', { headers: { Authorization: 'Basic abc' }, key: null }), 401, 'authentication_error');
  });

  it('never echoes the key it was sent', async () => {
    const reply = await call('GET', '/v1/memories', { key: 'egk_secret_value_that_must_not_leak' });
    expect(JSON.stringify(reply.body)).not.toContain('secret_value');
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    expectError(await call('GET', '/v1/nothing-here'), 404, 'not_found');
  });

  it('refuses malformed JSON with 400 and stores nothing', async () => {
    const space = freshSpace();
    const error = expectError(await call('POST', '/v1/memories', { raw: '{"text": "broken', space }), 400, 'invalid_request');
    expect(error.message).toMatch(/JSON/i);
    const listed = await call('GET', '/v1/sources', { space });
    expect(listed.body.total).toBe(0);
  });

  it('refuses a body that is not JSON', async () => {
    const reply = await call('POST', '/v1/memories', { raw: 'text=hello', headers: { 'Content-Type': 'text/plain' } });
    expect([400, 415]).toContain(reply.status);
    expect(reply.body.error.type).toMatch(/invalid_request|unsupported_media_type/);
  });

  it('refuses an unknown kind filter and an out-of-range limit, naming the field', async () => {
    const kind = expectError(await call('GET', '/v1/memories?kind=friends'), 400, 'invalid_request');
    expect(kind.details.field).toBe('kind');
    const limit = expectError(await call('GET', '/v1/memories?limit=abc'), 400, 'invalid_request');
    expect(limit.details.field).toBe('limit');
  });

  it('runs on the store this project was started for', () => {
    expect(['pglite', 'postgres']).toContain(inject('engramStore'));
  });
});

describe('calls from a browser', () => {
  it('answers a CORS preflight without a key, allowing the headers a client sends', async () => {
    const reply = await call('OPTIONS', '/v1/context', {
      key: null,
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, x-memory-space',
      },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-memory-space');
  });

  it('exposes the request id and usage headers to the page', async () => {
    const reply = await call('GET', '/v1/memories', { headers: { Origin: 'https://app.example' } });
    expect(reply.status).toBe(200);
    const exposed = reply.headers.get('access-control-expose-headers')?.toLowerCase() ?? '';
    expect(exposed).toContain('x-request-id');
    expect(exposed).toContain('x-memory-usage-state');
  });
});
