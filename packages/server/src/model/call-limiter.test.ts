import { describe, expect, it, vi } from 'vitest';
import { CallLimiter } from './call-limiter.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CallLimiter', () => {
  it('runs at most `concurrency` calls at once, the rest in order as places free', async () => {
    const limiter = new CallLimiter(2, 1_000);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const calls = [0, 1, 2, 3].map((index) =>
      limiter.run(async () => {
        started.push(index);
        await new Promise<void>((resolve) => releases.push(resolve));
        return index;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    releases[0]!();
    await tick();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    releases.slice(1).forEach((release) => release());
    await tick();
    await tick();
    releases.slice(3).forEach((release) => release());
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3]);
  });

  it('starts at most `perMinute` calls in any minute', async () => {
    vi.useFakeTimers();
    try {
      const limiter = new CallLimiter(10, 2);
      const started: number[] = [];
      const calls = [0, 1, 2].map((index) => limiter.run(async () => started.push(index)));
      await vi.advanceTimersByTimeAsync(59_000);
      expect(started).toEqual([0, 1]);
      await vi.advanceTimersByTimeAsync(1_001);
      await Promise.all(calls);
      expect(started).toEqual([0, 1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
