import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnServer } from '../setup/own-server.js';
import { call } from './helpers.js';

describe('key texts never rest anywhere', () => {
  const logged: string[] = [];
  const restore: (() => void)[] = [];
  let own: Awaited<ReturnType<typeof startOwnServer>>;
  beforeAll(async () => {
    // Everything the server writes to its output while it runs.
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        logged.push(String(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      restore.push(() => (stream.write = write));
    }
    for (const level of ['log', 'info', 'warn', 'error'] as const) {
      const original = console[level];
      console[level] = (...args: unknown[]) => {
        logged.push(
          args
            .map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : typeof arg === 'string' ? arg : JSON.stringify(arg)))
            .join(' '),
        );
      };
      restore.push(() => (console[level] = original));
    }
    own = await startOwnServer({});
  }, 120_000);
  afterAll(async () => {
    await own?.close();
    restore.forEach((undo) => undo());
  });

  it('keeps no key text in the logs or in any text column of the store after a run', { timeout: 300_000 }, async () => {
    const at = { base: own.server.url, key: own.key };
    const used = [own.key];
    for (const space of ['alice', 'bob', 'carol']) {
      // The client sends an Idempotency-Key with every write, key making included.
      const made = await call('POST', '/v1/keys', {
        ...at,
        body: { space, name: `${space} phone` },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(made.status).toBe(201);
      used.push(made.body.key);
      const replay = made.body.key as string;
      await call('POST', '/v1/memories', {
        base: own.server.url,
        key: replay,
        body: { text: `${space} plays the oboe.` },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      await call('POST', '/v1/context', {
        base: own.server.url,
        key: replay,
        body: { question: 'Who plays the oboe?' },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      await call('GET', '/v1/memories?space=elsewhere', { base: own.server.url, key: replay });
      await call('POST', '/v1/keys', { base: own.server.url, key: replay, body: { space } });
    }
    const revoked = used[1]!;
    const listed = await call('GET', '/v1/keys?space=alice', at);
    await call('DELETE', `/v1/keys/${listed.body.keys[0].id}`, at);
    await call('GET', '/v1/memories', { base: own.server.url, key: revoked });
    await call('GET', '/v1/memories', { base: own.server.url, key: `${own.key}x` });
    await call('POST', '/v1/memories', { ...at, raw: '{"text": broken', headers: { 'Idempotency-Key': randomUUID() } });
    // Wait for learning, so that the workers' writes are part of the run.
    const sources = await call('GET', '/v1/sources?space=bob', at);
    await call('GET', `/v1/sources/${sources.body.sources[0].id}?wait=20&space=bob`, at);

    const db = own.server.store.db;
    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'character')`.execute(db);
    expect(columns.rows.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const { table_name, column_name } of columns.rows) {
      for (const key of used) {
        const { rows } = await sql<{ count: number }>`
          select count(*)::int as count from ${sql.table(table_name)} where ${sql.ref(column_name)}::text like ${`%${key.slice(4)}%`}`.execute(
          db,
        );
        if (rows[0]!.count > 0) found.push(`${table_name}.${column_name} holds ${key.slice(0, 8)}…`);
      }
    }
    expect(found).toEqual([]);
    const output = logged.join('\n');
    for (const key of used) expect(output.includes(key.slice(4)), `the output holds ${key.slice(0, 8)}…`).toBe(false);
  });
});
