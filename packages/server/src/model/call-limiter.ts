/**
 * Bounds the calls an Engram process makes to its model: at most `concurrency` at once and
 * at most `perMinute` started in any sliding minute. Callers wait their turn in order.
 * (A dozen lines; a queueing library would add more than it saves.)
 */
export class CallLimiter {
  #active = 0;
  readonly #started: number[] = [];
  readonly #waiting: (() => void)[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(
    readonly concurrency: number,
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `task` once a place is free, and frees it when the task settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#dispatch();
    });
    try {
      return await task();
    } finally {
      this.#active--;
      this.#dispatch();
    }
  }

  #dispatch(): void {
    const minuteAgo = this.now() - 60_000;
    while (this.#started.length && this.#started[0]! <= minuteAgo) this.#started.shift();
    while (this.#waiting.length && this.#active < this.concurrency && this.#started.length < this.perMinute) {
      this.#active++;
      this.#started.push(this.now());
      this.#waiting.shift()!();
    }
    // Waiting only for the minute to move on: look again when the oldest start leaves it.
    if (this.#waiting.length && this.#active < this.concurrency && !this.#timer) {
      const wait = Math.max(1, this.#started[0]! + 60_000 - this.now());
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#dispatch();
      }, wait);
      this.#timer.unref();
    }
  }
}
