/** p50, p95 and p99 of some samples (NaN for none). */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

/** The 50th, 95th and 99th percentiles of `samples` (nearest rank). */
export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** A figure as the tables print it: whole from 100 up, one decimal below. */
export const round = (value: number): number => (value >= 100 ? Math.round(value) : Math.round(value * 10) / 10);

/** "p50 / p95 / p99", rounded. */
export const fmt = (figures: Percentiles): string => `${round(figures.p50)} / ${round(figures.p95)} / ${round(figures.p99)}`;
