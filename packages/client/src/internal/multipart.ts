import type { FilePart } from './to-blob.js';

const CRLF = '\r\n';

/** Quotes a name in a Content-Disposition header the way browsers do. */
const quote = (value: string) => value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');

function boundary(): string {
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  const bytes = new Uint8Array(12);
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let index = 0; index < bytes.length; index += 1) bytes[index] = Math.floor(Math.random() * 256);
  return `----EngramBoundary${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A multipart/form-data body built once, as a Blob: unlike FormData, whose boundary can
 * change each time it is sent, every retry carries the same bytes.
 */
export function multipartBody(
  fields: Record<string, string | undefined>,
  file: { name: string; part: FilePart },
): { data: Blob; contentType: string } {
  const mark = boundary();
  const parts: BlobPart[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(`--${mark}${CRLF}Content-Disposition: form-data; name="${quote(name)}"${CRLF}${CRLF}${value}${CRLF}`);
  }
  parts.push(
    `--${mark}${CRLF}Content-Disposition: form-data; name="${quote(file.name)}"; filename="${quote(file.part.filename)}"${CRLF}` +
      `Content-Type: ${file.part.contentType}${CRLF}${CRLF}`,
    file.part.data,
    `${CRLF}--${mark}--${CRLF}`,
  );
  return { data: new Blob(parts), contentType: `multipart/form-data; boundary=${mark}` };
}
