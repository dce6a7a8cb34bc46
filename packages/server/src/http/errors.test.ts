import { describe, expect, it } from 'vitest';
import { isTransientStoreError } from './errors.js';

describe('isTransientStoreError', () => {
  it('tells store errors a retry may not meet from the rest', () => {
    for (const code of ['40P01', '40001', '55P03', '53300', '57P01', '08006', '08003']) {
      expect(isTransientStoreError(Object.assign(new Error('busy'), { code }))).toBe(true);
    }
    for (const error of [
      Object.assign(new Error('x'), { code: '23505' }),
      Object.assign(new Error('x'), { code: '42P01' }),
      new Error('plain'),
      'text',
      null,
    ]) {
      expect(isTransientStoreError(error)).toBe(false);
    }
  });
});
