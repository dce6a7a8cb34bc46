import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngramProcess } from './engram-process.js';
import { killHard, noteOf, pause, save, startEngram, stopGracefully } from './engram-process.js';

// One `engram serve` on the embedded store, killed with SIGKILL in the middle of a burst of
// saves and started again on the same data directory.
const KEY = 'egk_crash_owner_key_0123456789abcdefghijklmnop';
const SAVES = 400;
const SPACE = 'crash';

let dataDir: string;
let env: Record<string, string>;
let server: EngramProcess | null = null;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'engram-crash-'));
  env = {
    ENGRAM_DATA_DIR: dataDir,
    ENGRAM_BOOTSTRAP_KEY: KEY,
    ENGRAM_ACCOUNT_RPM: '1000000',
    ENGRAM_POLL_MS: '100',
    // A lease far longer than the test: a job cut short by the crash is learned again only
    // because the restarted process gives every claim back at its start.
    ENGRAM_LEASE_SECONDS: '3600',
  };
});

afterAll(async () => {
  if (server) await stopGracefully(server);
  await rm(dataDir, { recursive: true, force: true });
});

async function sourceOf(id: string): Promise<{ status: number; source?: { status: string; attempts: number } }> {
  const response = await fetch(`${server!.url}/v1/sources/${id}?space=${SPACE}`, { headers: { Authorization: `Bearer ${KEY}` } });
  return { status: response.status, ...((await response.json()) as object) };
}

describe('the embedded store killed with SIGKILL mid-burst', () => {
  it('keeps every acknowledged save and resumes learning at once after a restart', async () => {
    server = await startEngram(['serve'], env);
    const acknowledged: string[] = [];
    let next = 0;
    let restarted: Promise<void> | null = null;

    async function client(): Promise<void> {
      for (;;) {
        const index = next++;
        if (index >= SAVES) return;
        for (let attempt = 0; ; attempt += 1) {
          try {
            await restarted;
            const reply = await save(server!.url, KEY, { text: noteOf(index), space: SPACE });
            expect(reply.status).toBe(201);
            acknowledged.push(reply.id!);
            break;
          } catch (error) {
            // The process was killed under this request: it was not acknowledged, so it is sent again.
            if (attempt > 50) throw error;
            await pause(100);
          }
        }
      }
    }

    async function crash(): Promise<void> {
      while (acknowledged.length < SAVES / 3) await pause(10);
      const dead = server!;
      let restart!: () => void;
      restarted = new Promise((resolve) => {
        restart = resolve;
      });
      await killHard(dead);
      const atCrash = acknowledged.length;
      server = await startEngram(['serve'], env);
      restart();
      expect(atCrash).toBeGreaterThan(0);
      console.log(`[crash] killed after ${atCrash} acknowledged saves; restart said: ${server.output().trim().split('\n').at(-1)}`);
    }

    await Promise.all([crash(), ...Array.from({ length: 8 }, () => client())]);
    expect(acknowledged).toHaveLength(SAVES);

    // Every acknowledged save is there, and every one is learned.
    const pending = new Set(acknowledged);
    const deadline = Date.now() + 120_000;
    while (pending.size && Date.now() < deadline) {
      for (const id of [...pending]) {
        const reply = await sourceOf(id);
        expect(reply.status).toBe(200);
        if (reply.source!.status === 'finished') pending.delete(id);
        else expect(['queued', 'learning']).toContain(reply.source!.status);
      }
      if (pending.size) await pause(500);
    }
    expect([...pending]).toEqual([]);

    // The restarted process holds no learning job its dead predecessor claimed: nothing is left.
    const listed = await fetch(`${server!.url}/v1/sources?space=${SPACE}&limit=1`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(((await listed.json()) as { total: number }).total).toBeGreaterThanOrEqual(SAVES);
  });

  it('stops gracefully on SIGTERM and opens the same data directory again', async () => {
    expect(await stopGracefully(server!)).toBe(0);
    server = await startEngram(['serve'], env);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true });
  });
});
