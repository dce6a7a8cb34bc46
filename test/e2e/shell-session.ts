import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/**
 * One bash process that runs commands in turn, as a person typing them would: variables and
 * background jobs carry over from one command to the next. Each command's standard output is
 * returned once it finishes. close() ends the process group (bash and its background jobs).
 */
export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private output = '';
  private errors = '';
  private count = 0;

  constructor(options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd: options.cwd, env: options.env, detached: true });
    this.bash.stdout.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
    this.bash.stderr.on('data', (chunk: Buffer) => {
      this.errors = (this.errors + chunk.toString()).slice(-4_000);
    });
  }

  /** Runs a command and resolves with what it printed and its exit status. */
  run(command: string, timeoutMs = 60_000): Promise<{ stdout: string; status: number }> {
    const marker = `__engram_done_${++this.count}__`;
    this.output = '';
    this.bash.stdin.write(`${command}\nprintf '\\n${marker} %s\\n' "$?"\n`);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const found = new RegExp(`\\n${marker} (\\d+)\\n`).exec(this.output);
        if (found) {
          clearInterval(poll);
          resolve({ stdout: this.output.slice(0, found.index), status: Number(found[1]) });
        } else if (Date.now() - started > timeoutMs) {
          clearInterval(poll);
          reject(new Error(`no end of "${command}" in ${timeoutMs} ms; printed so far: ${this.output}`));
        }
      }, 50);
    });
  }

  /** The last few thousand characters written on standard error, for failure messages. */
  get stderr(): string {
    return this.errors;
  }

  /** Ends bash and every job it started in the background. */
  async close(): Promise<void> {
    if (this.bash.exitCode !== null || this.bash.pid === undefined) return;
    const exited = new Promise((resolve) => this.bash.once('exit', resolve));
    process.kill(-this.bash.pid, 'SIGTERM');
    await exited;
  }
}
