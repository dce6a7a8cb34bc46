// The README's "A first session with curl", run as written in one shell, command by command,
// each answer checked against the shape the README shows after it. Only what cannot stay as
// written on a shared machine changes: the server gets a free port and a fresh data folder
// (through ENGRAM_PORT and ENGRAM_DATA_DIR), and `src_…` becomes the id of the source just saved.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { commandsOf, shellBlockUnder } from './readme-blocks.js';
import { ShellSession } from './shell-session.js';
import { differencesFromShown } from './shown-answer.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const commands = commandsOf(shellBlockUnder(join(root, 'README.md'), '## A first session with curl'));
const dataDir = mkdtempSync(join(tmpdir(), 'engram-readme-'));
let shell: ShellSession | undefined;

afterAll(async () => {
  await shell?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the README's curl session", () => {
  it('shows commands with answers', () => {
    expect(commands.map((shown) => shown.command.split(/\s/)[0])).toEqual(expect.arrayContaining(['export', 'npm', 'curl']));
    expect(commands.filter((shown) => shown.answer !== undefined).length).toBeGreaterThanOrEqual(4);
  });

  it('answers each command as the README shows', { timeout: 400_000 }, async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, ENGRAM_PORT: String(port), ENGRAM_DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.ENGRAM_BOOTSTRAP_KEY;
    shell = new ShellSession({ cwd: root, env });
    let sourceId: string | undefined;

    for (const shown of commands) {
      let command = shown.command.replaceAll('127.0.0.1:8787', `127.0.0.1:${port}`);
      if (command.includes('src_…')) {
        expect(sourceId, 'a source id from an earlier answer').toBeDefined();
        command = command.replaceAll('src_…', sourceId!);
      }
      let { stdout, status } = await shell.run(command, 120_000);
      // "Wait until it is learned (up to 10 s)": on a busy machine the first learning (which loads
      // the word lists) can take longer, and a person would run the same command again.
      for (let again = 0; again < 10 && command.includes('?wait=') && /"status":"(queued|learning)"/.test(stdout); again++) {
        ({ stdout, status } = await shell.run(command, 120_000));
      }
      expect(status, command).toBe(0);
      if (/^npm start\s*&/.test(command)) await untilHealthy(port, shell);
      if (shown.answer === undefined) continue;
      const answer = JSON.parse(stdout);
      expect(differencesFromShown(shown.answer, answer), `${command}\n→ ${stdout}`).toEqual([]);
      sourceId ??= answer.source?.id;
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits for the server `npm start &` started, as a person would before the next command. */
async function untilHealthy(port: number, session: ShellSession): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not answer on port ${port}:\n${session.stderr}`);
}
