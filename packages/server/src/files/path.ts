import { LIMITS } from '@engram/protocol';

/** Characters of a text as SPEC.md counts them: Unicode code points (an emoji is one). */
export function countCharacters(text: string): number {
  let surrogatePairs = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        index++;
      }
    }
  }
  return text.length - surrogatePairs;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /\p{Cc}/u;

/**
 * Why a file path breaks the rules of SPEC.md, or null when it keeps them: starts with "/",
 * at most 255 characters, does not end with "/", no empty, "." or ".." part, no backslash,
 * no control character.
 */
export function pathProblem(path: string): string | null {
  if (!path.startsWith('/')) return 'must start with "/"';
  if (countCharacters(path) > LIMITS.filePathChars) return `at most ${LIMITS.filePathChars} characters`;
  if (path.endsWith('/')) return 'must not end with "/"';
  if (path.includes('\\')) return 'must not contain a backslash';
  if (CONTROL.test(path)) return 'must not contain a control character';
  for (const part of path.slice(1).split('/')) {
    if (part === '') return 'must not have an empty part ("//")';
    if (part === '.' || part === '..') return 'must not have a "." or ".." part';
  }
  return null;
}

/** Why a listing or delete prefix is refused, or null: it must start with "/" ("/" means every file). */
export function prefixProblem(prefix: string): string | null {
  if (!prefix.startsWith('/')) return 'must start with "/"';
  if (prefix.includes('\\')) return 'must not contain a backslash';
  if (CONTROL.test(prefix)) return 'must not contain a control character';
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a file's text cannot be kept exactly, or null: PostgreSQL text holds no NUL, and a lone surrogate is not Unicode. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (no lone surrogate)';
  return null;
}
