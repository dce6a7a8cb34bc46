/** Longest `Retry-After` honoured; a longer one falls back to the computed backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const MAX_JITTER = 0.25;

/**
 * Milliseconds asked for by a `Retry-After` value (seconds, or an HTTP date), or null
 * when there is none, it cannot be read, or it is over 60 seconds.
 */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return ms <= MAX_RETRY_AFTER_MS ? ms : null;
}

/**
 * How long to wait before retry number `retriesDone + 1`: the server's `Retry-After` when
 * usable, else 0.5 s × 2ⁿ capped at 8 s, shortened by up to 25 % jitter.
 */
export function retryDelay(retriesDone: number, retryAfter: string | null | undefined, random: () => number = Math.random): number {
  const asked = retryAfterMs(retryAfter);
  if (asked !== null) return asked;
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retriesDone, MAX_DELAY_MS);
  return base * (1 - random() * MAX_JITTER);
}
