/** A new `Idempotency-Key` value: made once per logical call and sent unchanged on every retry of it. */
export function newIdempotencyKey(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID === 'function') return `idem_${crypto.randomUUID()}`;
  // Old runtimes without randomUUID: uniqueness, not secrecy, is what matters here.
  return `idem_${Date.now().toString(36)}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
