import type { FileRow, IntentionOut, KeyOut, Memory, Source, SpaceRow } from '@engram/protocol';

/** Protocol-shaped records for answers of the injected fetch. */
export const source = (overrides: Partial<Source> = {}): Source => ({
  id: 'src_abcdefgh12345678',
  kind: 'note',
  title: null,
  url: null,
  path: null,
  status: 'queued',
  error: null,
  memories: 0,
  tokens: 100,
  created_at: '2026-11-22T10:00:00.000Z',
  learned_at: null,
  attempts: 0,
  retry_at: null,
  ...overrides,
});

export const memory = (overrides: Partial<Memory> = {}): Memory => ({
  id: 1,
  text: 'Ana lives in Porto.',
  kind: 'people',
  date: '2026-11-22',
  source: { id: 'src_abcdefgh12345678', kind: 'note', title: null },
  about: ['Ana', 'Porto'],
  labels: {},
  status: 'current',
  created_at: '2026-11-22T10:00:01.000Z',
  ...overrides,
});

export const fileRow = (path: string): FileRow => ({ path, size: 5, updated_at: '2026-11-22T10:00:00.000Z', labels: {} });

export const intention = (overrides: Partial<IntentionOut> = {}): IntentionOut => ({
  id: 7,
  text: 'Send Ana the contract',
  status: 'open',
  due: '2026-12-01',
  triggers: [{ type: 'date', at: '2026-12-01' }],
  project: 'lease',
  source_id: 'src_abcdefgh12345678',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  ...overrides,
});

export const keyOut = (overrides: Partial<KeyOut> = {}): KeyOut => ({
  id: 3,
  name: 'phone',
  space: 'user-1',
  starts_with: 'egs_AbCd',
  rpm: 60,
  created_at: '2026-11-22T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  note: null,
  ...overrides,
});

export const spaceRow = (name: string): SpaceRow => ({ name, created_at: '2026-11-22T10:00:00.000Z', memories: 3, sources: 1 });
