import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, expectError } from '../api/helpers.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const run = promisify(execFile);
/** Each command starts a Node process of its own: a few seconds apiece on a busy machine. */
const COMMANDS = 180_000;

/** Runs the built `engram` command against the test server's database. */
async function engram(...args: string[]) {
  const { stdout } = await run(process.execPath, [cli, ...args], { env: { ...process.env, DATABASE_URL: inject('engramDatabaseUrl') } });
  return stdout;
}

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`Build first (npm run build): ${cli} is missing`);
});

describe('the engram command for operators', () => {
  it(
    'makes an account, sets its plan and extra learning, and makes and revokes its keys',
    async () => {
      const name = `acme-${Date.now()}`;
      const created = await engram('accounts', 'create', name);
      const [, id] = /Account (\d+)/.exec(created)!;
      const firstKey = created.trim().split('\n').at(-1)!;
      expect(firstKey).toMatch(/^egk_/);
      expect(await engram('accounts', 'list')).toContain(`${id}\t${name}\tfree`);

      const before = await call('GET', '/v1/usage', { key: firstKey });
      expect(before.body).toMatchObject({ plan: 'free', trial: true, extra_on: false });

      await engram('plan', 'set', id!, 'max');
      await engram('extra', 'on', '--cap', '7', '--account', id!);
      const after = await call('GET', '/v1/usage', { key: firstKey });
      expect(after.body).toMatchObject({ plan: 'max', trial: false, extra_on: true, extra_cap_usd: 7, included_tokens: 100_000_000 });

      const second = (await engram('keys', 'create', '--account', id!, '--name', 'ci')).trim();
      expect((await call('GET', '/v1/memories', { key: second })).status).toBe(200);
      const listed = await engram('keys', 'list', '--account', id!);
      const line = listed.split('\n').find((row) => row.includes(second.slice(0, 8)))!;
      await engram('keys', 'revoke', line.split('\t')[0]!, '--account', id!);
      expectError(await call('GET', '/v1/memories', { key: second }), 401, 'authentication_error');
      // The other account's memory is out of this key's reach, and the first key still works.
      expect((await call('GET', '/v1/memories', { key: firstKey })).body.total).toBe(0);
    },
    COMMANDS,
  );

  it(
    'indexes the memories of an account again, space by space, keeping them',
    async () => {
      const created = await engram('accounts', 'create', `reindex-${Date.now()}`);
      const [, id] = /Account (\d+)/.exec(created)!;
      const key = created.trim().split('\n').at(-1)!;
      const saved = await call('POST', '/v1/memories', { key, body: { text: 'Oona repairs violins in Turku.', space: 'oona' } });
      const waited = await call('GET', `/v1/sources/${saved.body.source.id}?wait=20&space=oona`, { key });
      expect(waited.body.source.status).toBe('finished');
      const output = await engram('reindex', '--account', id!);
      expect(output.split('\n')).toEqual(expect.arrayContaining(['(own)\t0 sources\t0 memories', 'oona\t1 sources\t1 memories']));
      const found = await call('POST', '/v1/search', { key, body: { q: 'Which instrument does Oona repair?', space: 'oona' } });
      expect(found.body.memories.map((memory: { text: string }) => memory.text)).toEqual(['Oona repairs violins in Turku.']);
    },
    COMMANDS,
  );
});
