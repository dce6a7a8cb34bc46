import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, expectError, freshSpace } from '../api/helpers.js';

// A second API process (the built `engram serve`) on the same PostgreSQL as the test server.
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
let child: ChildProcess;
let secondUrl: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`Build first (npm run build): ${cli} is missing`);
  child = spawn(process.execPath, [cli, 'serve'], {
    env: { ...process.env, DATABASE_URL: inject('engramDatabaseUrl'), ENGRAM_PORT: '0', ENGRAM_WORKERS: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  secondUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`second server exited with ${code}: ${output}`)));
  });
});

afterAll(() => {
  child?.kill('SIGTERM');
});

describe('two API processes on one PostgreSQL', () => {
  it('share one database: a save on one is read on the other', async () => {
    const space = freshSpace();
    const saved = await call('POST', '/v1/memories', { body: { text: 'Ugo tunes pianos.', space } });
    const read = await call('GET', `/v1/sources/${saved.body.source.id}`, { space, base: secondUrl });
    expect(read.status).toBe(200);
    expect(read.body.source.id).toBe(saved.body.source.id);
  });

  it('hold a limited key to its rpm across both processes', async () => {
    // Alternating between the processes, the fifth request is the first refused: the count is shared.
    // (Apart, each process would allow four.) A run that straddles a minute is run again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const minute = Math.floor(Date.now() / 60_000);
      const space = freshSpace();
      const { key } = (await call('POST', '/v1/keys', { body: { space, rpm: 4 } })).body;
      const replies = [];
      for (let index = 0; index < 6; index += 1) {
        replies.push(await call('GET', '/v1/sources', { key, base: index % 2 ? secondUrl : undefined }));
      }
      if (Math.floor(Date.now() / 60_000) !== minute) continue;
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 429, 429]);
      expectError(replies[4]!, 429, 'rate_limited');
      expect(Number(replies[5]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      return;
    }
    throw new Error('every attempt straddled a minute');
  });
});
