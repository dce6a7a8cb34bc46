import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built `engram` command: the cluster tests run what operators run. */
export const CLI = fileURLToPath(new URL('../../packages/server/dist/cli.js', import.meta.url));

/** One `engram` process of the test's cluster. */
export interface EngramProcess {
  child: ChildProcess;
  pid: number;
  /** Where its API listens ('' for a worker). */
  url: string;
  /** What it wrote on stderr so far. */
  output(): string;
  /** Resolves with its exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `engram ARGS` and waits until it says it listens (serve) or runs its workers (worker). */
export async function startEngram(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<EngramProcess> {
  if (!existsSync(CLI)) throw new Error(`Build first (npm run build): ${CLI} is missing`);
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ENGRAM_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engram ${args.join(' ')} did not start in ${timeoutMs} ms: ${output}`)), timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening || /workers running/.test(output)) {
        clearTimeout(timer);
        resolve(listening ? listening[1]! : '');
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`engram ${args.join(' ')} exited (${code ?? signal}) before it started: ${output}`));
    });
  });
  return { child, pid: child.pid!, url, output: () => output, exited };
}

/** Kills a process with SIGKILL (no chance to clean up) and waits for it to be gone. */
export async function killHard(engram: EngramProcess): Promise<void> {
  engram.child.kill('SIGKILL');
  await engram.exited;
}

/** Stops a process as an operator would (SIGTERM) and returns its exit code. */
export async function stopGracefully(engram: EngramProcess): Promise<number | null> {
  if (engram.child.exitCode !== null || engram.child.signalCode !== null) return engram.child.exitCode;
  engram.child.kill('SIGTERM');
  return (await engram.exited).code;
}

/** A save's outcome: the source id when acknowledged (201), else null. */
export async function save(base: string, key: string, body: unknown): Promise<{ status: number; id: string | null }> {
  const response = await fetch(`${base}/v1/memories`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { source?: { id: string } };
  return { status: response.status, id: response.status === 201 ? answer.source!.id : null };
}

/** Sleeps. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A note with one distinct fact, made from its number. */
export function noteOf(index: number): string {
  const people = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farid', 'Greta', 'Hiro'];
  const things = ['a red kayak', 'an old cello', 'a beehive', 'a sailing dinghy', 'a pottery wheel', 'a telescope'];
  const towns = ['Lisbon', 'Tartu', 'Bergen', 'Lyon', 'Graz', 'Split', 'Cork'];
  return `${people[index % people.length]} number ${index} keeps ${things[index % things.length]} in ${towns[index % towns.length]}.`;
}
