/**
 * A name (a session id, a namespace part, a key) as one part of an Engram file path: a path part
 * cannot hold "/" or a backslash, be empty, or be "." or "..", so such characters are escaped the
 * way URLs escape them and read back with `decodePathPart`.
 */
export function encodePathPart(name: string): string {
  if (name === '') throw new Error('An empty name cannot be part of a file path');
  const encoded = encodeURIComponent(name);
  return encoded === '.' || encoded === '..' ? encoded.replaceAll('.', '%2E') : encoded;
}

/** The name `encodePathPart` escaped. */
export function decodePathPart(part: string): string {
  return decodeURIComponent(part);
}

/** A path prefix as given, checked and without a trailing "/" ("/langchain/sessions/"). */
export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  if (!trimmed.startsWith('/')) throw new Error(`A path prefix starts with "/": ${JSON.stringify(prefix)}`);
  return trimmed;
}
