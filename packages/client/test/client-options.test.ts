import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BASE_URL, Engram, EngramError } from '../src/index.js';
import { readEnv } from '../src/internal/read-env.js';
import { fakeClient, json, recordingFetch } from './helpers/recording-fetch.js';

const emptyPage = { memories: [], counts: { all: 0, people: 0, plan: 0, pref: 0, detail: 0 }, total: 0 };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('new Engram()', () => {
  it('reads ENGRAM_API_KEY and ENGRAM_BASE_URL when no options name them', async () => {
    vi.stubEnv('ENGRAM_API_KEY', 'egk_from_environment');
    vi.stubEnv('ENGRAM_BASE_URL', 'https://memory.example.test/');
    const { fetch, calls } = recordingFetch(() => json(emptyPage));
    const engram = new Engram({ fetch, logger: null });
    expect(engram.baseURL).toBe('https://memory.example.test');
    await engram.memories.list();
    expect(calls[0]!.url.href).toBe('https://memory.example.test/v1/memories?cursor=0');
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer egk_from_environment');
  });

  it('prefers options over the environment, and defaults to http://127.0.0.1:8787', () => {
    vi.stubEnv('ENGRAM_API_KEY', 'egk_from_environment');
    vi.stubEnv('ENGRAM_BASE_URL', '');
    const engram = new Engram({ apiKey: 'egk_from_options' });
    expect(engram.baseURL).toBe('http://127.0.0.1:8787');
    expect(DEFAULT_BASE_URL).toBe('http://127.0.0.1:8787');
    expect(engram.maxRetries).toBe(2);
    expect(engram.timeout).toBe(60_000);
    expect(new Engram({ apiKey: 'egk_x', baseURL: 'http://other.test:9/base' }).baseURL).toBe('http://other.test:9/base');
  });

  it('refuses to start without a key, saying where to put one', () => {
    vi.stubEnv('ENGRAM_API_KEY', '');
    expect(() => new Engram()).toThrow(EngramError);
    expect(() => new Engram()).toThrow(/ENGRAM_API_KEY/);
  });

  it('refuses bad maxRetries and timeout', () => {
    expect(() => new Engram({ apiKey: 'egk_x', maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new Engram({ apiKey: 'egk_x', maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => new Engram({ apiKey: 'egk_x', timeout: 0 })).toThrow(/timeout/);
  });

  it('sends the key, Accept and defaultHeaders on every call, and per-call headers', async () => {
    const { engram, calls } = fakeClient(() => json(emptyPage), { defaultHeaders: { 'X-Team': 'core' } });
    await engram.memories.list({}, { headers: { 'X-Trace': 't1' } });
    expect(calls[0]!.headers.get('authorization')).toMatch(/^Bearer egk_/);
    expect(calls[0]!.headers.get('accept')).toBe('application/json');
    expect(calls[0]!.headers.get('x-team')).toBe('core');
    expect(calls[0]!.headers.get('x-trace')).toBe('t1');
    expect(calls[0]!.headers.get('x-memory-space')).toBeNull();
  });
});

describe('in a browser', () => {
  const pretendBrowser = () => {
    vi.stubGlobal('window', { document: {} });
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0' });
  };

  it('refuses an account key', () => {
    pretendBrowser();
    expect(() => new Engram({ apiKey: 'egk_account_key' })).toThrow(/browser/);
    expect(() => new Engram({ apiKey: 'egk_account_key' })).not.toThrow(/egk_account_key/);
  });

  it('accepts a key limited to one space', () => {
    pretendBrowser();
    expect(new Engram({ apiKey: 'egs_limited_key' }).baseURL).toBe(DEFAULT_BASE_URL);
  });

  it('accepts an account key when dangerouslyAllowBrowser is set', () => {
    pretendBrowser();
    expect(() => new Engram({ apiKey: 'egk_account_key', dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('is not fooled by a window without a document (Deno, workers)', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('navigator', { userAgent: 'Deno' });
    expect(() => new Engram({ apiKey: 'egk_account_key' })).not.toThrow();
  });
});

describe('readEnv', () => {
  it('reads process.env, trims, and treats blank as unset', () => {
    vi.stubEnv('ENGRAM_TEST_VALUE', '  value  ');
    expect(readEnv('ENGRAM_TEST_VALUE')).toBe('value');
    vi.stubEnv('ENGRAM_TEST_VALUE', '   ');
    expect(readEnv('ENGRAM_TEST_VALUE')).toBeUndefined();
  });

  it('works where process is absent, and reads Deno.env there', () => {
    vi.stubGlobal('process', undefined);
    expect(readEnv('ENGRAM_API_KEY')).toBeUndefined();
    vi.stubGlobal('Deno', { env: { get: (name: string) => (name === 'ENGRAM_API_KEY' ? 'egk_deno' : undefined) } });
    expect(readEnv('ENGRAM_API_KEY')).toBe('egk_deno');
    vi.stubGlobal('Deno', {
      env: {
        get: () => {
          throw new Error('PermissionDenied');
        },
      },
    });
    expect(readEnv('ENGRAM_API_KEY')).toBeUndefined();
  });
});

describe('forSpace', () => {
  it('returns a client scoped to one space that sends X-Memory-Space, leaving the original unscoped', async () => {
    const { engram, calls } = fakeClient(() => json(emptyPage), { maxRetries: 5, timeout: 1234 });
    const user = engram.forSpace('user-42');
    expect(user).toBeInstanceOf(Engram);
    expect(user).not.toBe(engram);
    expect(user.space).toBe('user-42');
    expect(user.maxRetries).toBe(5);
    expect(user.timeout).toBe(1234);
    expect(engram.space).toBeUndefined();
    await user.memories.list();
    await engram.memories.list();
    expect(calls.map((call) => call.headers.get('x-memory-space'))).toEqual(['user-42', null]);
    expect(calls[0]!.headers.get('authorization')).toBe(calls[1]!.headers.get('authorization'));
    await user.forSpace('user-43').memories.list();
    expect(calls[2]!.headers.get('x-memory-space')).toBe('user-43');
  });

  it('refuses a blank or too long space, or one a header cannot carry', () => {
    const { engram } = fakeClient(() => json({}));
    expect(() => engram.forSpace('')).toThrow(EngramError);
    expect(() => engram.forSpace('   ')).toThrow(/blank/);
    expect(() => engram.forSpace('x'.repeat(129))).toThrow(/128/);
    expect(() => engram.forSpace('user\n1')).toThrow(/space/);
    expect(() => engram.forSpace('用户')).toThrow(/space/);
    expect(engram.forSpace('x'.repeat(128)).space).toHaveLength(128);
    expect(() => new Engram({ apiKey: 'egk_x', space: '' })).toThrow(EngramError);
  });

  it('takes the space in the constructor too', async () => {
    const { engram, calls } = fakeClient(() => json(emptyPage), { space: 'user-7' });
    await engram.memories.list();
    expect(calls[0]!.headers.get('x-memory-space')).toBe('user-7');
  });
});
