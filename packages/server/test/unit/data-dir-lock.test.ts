import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../src/store/data-dir-lock.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const KEY = 'egk_lock_test_owner_0123456789abcdefghij';

let dataDir: string;
const env = (extra: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_URL: '',
  ENGRAM_DATA_DIR: dataDir,
  ENGRAM_PORT: '0',
  ENGRAM_WORKERS: '0',
  ENGRAM_BOOTSTRAP_KEY: KEY,
  ...extra,
});

/** Runs the built `engram` command to its end. */
function engram(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: env(extra), timeout: 300_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Starts `engram serve` and waits until it listens; returns the process and its address. */
async function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, 'serve'], { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error(`Build first (npm run build): ${cli} is missing`);
  dataDir = await mkdtemp(join(tmpdir(), 'engram-lock-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('one process per embedded store', { timeout: 600_000 }, () => {
  it('refuses a second lock on the same data dir in the same process, and takes a released one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-lock-unit-'));
    try {
      const first = lockDataDir(dir, 'serve');
      expect(() => lockDataDir(dir, 'keys create')).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir, 'keys create')).toThrow(/a server is running on this data dir .*; stop it or use the API/);
      first.release();
      expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
      lockDataDir(dir, 'keys create').release();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a second server and CLI writes while a server runs, and allows them once it stops', async () => {
    const first = await serve();
    try {
      const holder = JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8'));
      expect(holder).toMatchObject({ pid: first.child.pid, command: 'serve' });

      const second = await engram(['serve']);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toMatch(/^engram: a server is running on this data dir \(.*pid \d+\); stop it or use the API\n$/);

      for (const args of [
        ['keys', 'create'],
        ['accounts', 'create', 'acme'],
        ['extra', 'on'],
      ]) {
        const refused = await engram(args);
        expect(`${args.join(' ')}: ${refused.code}`).toBe(`${args.join(' ')}: 2`);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toContain('a server is running on this data dir');
      }
      // The server still answers with its own key, and only its own.
      const reply = await fetch(`${first.url}/v1/memories`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(reply.status).toBe(200);
    } finally {
      await stop(first.child);
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const made = await engram(['keys', 'create', '--name', 'after']);
    expect(made.code).toBe(0);
    expect(made.stdout.trim()).toMatch(/^egk_/);
    const listed = await engram(['keys', 'list']);
    expect(listed.stdout).toContain('after');
  });

  it('takes over a lock whose process has died', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid: dead.pid, command: 'serve', started_at: new Date().toISOString() }));
    const listed = await engram(['keys', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('bootstrap');
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

describe('the engram command', { timeout: 600_000 }, () => {
  it('prints the usage for --help and starts nothing', async () => {
    for (const args of [
      ['serve', '--help'],
      ['keys', 'create', '-h'],
    ]) {
      const help = await engram(args, { ENGRAM_DATA_DIR: join(dataDir, 'never-made') });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage:');
      expect(help.stderr).toBe('');
    }
    expect(existsSync(join(dataDir, 'never-made'))).toBe(false);
  });

  it('says in one line that the port is busy, and exits non-zero', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const busy = await engram(['serve'], { ENGRAM_PORT: String(port), ENGRAM_DATA_DIR: join(dataDir, 'busy') });
      expect(busy.code).not.toBe(0);
      expect(busy.stderr).toBe(
        `engram: port ${port} is already in use on 127.0.0.1; stop what listens there or set ENGRAM_PORT to another port\n`,
      );
      // The store it opened is let go.
      expect(existsSync(join(dataDir, 'busy', LOCK_FILE))).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
