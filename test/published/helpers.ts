import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/** The installed project, its server and the packed packages (see setup.ts). */
export const published = () => inject('published');

/**
 * Runs a script inside the installed project with Node, so `import` and `require` resolve the
 * packages as a user's project would. `.mjs` runs as ESM, `.cjs` as CommonJS. The script's last
 * line of output is parsed as JSON and returned. ENGRAM_BASE_URL and ENGRAM_API_KEY point at the
 * installed server.
 */
export async function runScript(extension: 'mjs' | 'cjs', source: string, env: Record<string, string> = {}): Promise<any> {
  const { dir, baseUrl, apiKey } = published();
  const file = join(dir, `check-${randomUUID()}.${extension}`);
  writeFileSync(file, source);
  const { stdout } = await run(process.execPath, [file], {
    cwd: dir,
    env: { ...process.env, ENGRAM_BASE_URL: baseUrl, ENGRAM_API_KEY: apiKey, ...env },
    timeout: 180_000,
  });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines.at(-1) ?? '');
}

/** Runs a command from the installed project's node_modules/.bin (through npx, installing nothing). */
export async function runBin(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run('npx', ['--no-install', command, ...args], { cwd: published().dir, timeout: 60_000 });
}

/** A space name no other test uses. */
export const freshSpace = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
