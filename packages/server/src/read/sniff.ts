/** What an uploaded file's bytes say it is. */
export type Sniffed =
  | { kind: 'pdf' }
  | { kind: 'docx' }
  /** It is a PDF or Word file, but it cannot be read as one (damaged, locked). */
  | { kind: 'unreadable'; message: string }
  /** Neither a PDF nor a .docx. */
  | { kind: 'unsupported'; message: string };

const PDF = Buffer.from('%PDF-');
const ZIP_ENTRY = Buffer.from('PK\x03\x04', 'latin1');
const ZIP_END = Buffer.from('PK\x05\x06', 'latin1');
const ZIP_CENTRAL = 0x02014b50;
/** The OLE compound file header: old .doc files, and .docx files locked with a password. */
const OLE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * Judges a file by its content, never its name: `%PDF-` near the start is a PDF; a ZIP
 * holding word/document.xml is a .docx; a password-locked .docx (an OLE file with an
 * EncryptedPackage stream) and a ZIP whose directory is broken are unreadable.
 */
export function sniffFile(bytes: Uint8Array): Sniffed {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The PDF header may follow a little junk; readers look in the first kilobyte.
  if (buffer.subarray(0, 1024).includes(PDF)) return { kind: 'pdf' };
  if (buffer.subarray(0, 4).equals(ZIP_ENTRY) || buffer.subarray(0, 4).equals(ZIP_END)) {
    const names = zipEntryNames(buffer);
    if (names === null) return { kind: 'unreadable', message: 'The file is a damaged ZIP archive (its directory cannot be read)' };
    if (names.includes('word/document.xml')) return { kind: 'docx' };
    return { kind: 'unsupported', message: 'The file is a ZIP archive but not a Word .docx document; send a PDF or a .docx' };
  }
  if (buffer.subarray(0, 8).equals(OLE)) {
    if (buffer.includes(ENCRYPTED_PACKAGE)) return { kind: 'unreadable', message: 'The Word file is protected by a password' };
    return { kind: 'unsupported', message: 'Old Word .doc and other Office binary files are not read; save it as .docx or PDF' };
  }
  return { kind: 'unsupported', message: 'Only PDF and Word .docx files are read' };
}

/** The names in a ZIP's central directory, or null when the directory is missing or broken. */
export function zipEntryNames(buffer: Buffer): string[] | null {
  // The end record sits in the last 22 bytes plus a comment of up to 65,535 bytes.
  const end = buffer.lastIndexOf(ZIP_END, buffer.length - 22);
  if (end < 0 || end < buffer.length - 22 - 65_535) return null;
  const count = buffer.readUInt16LE(end + 10);
  const size = buffer.readUInt32LE(end + 12);
  let offset = buffer.readUInt32LE(end + 16);
  // ZIP64 archives mark these fields as 0xffff…; a .docx is never that large.
  if (offset === 0xffffffff || offset + size > end) return null;
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    if (offset + 46 > end || buffer.readUInt32LE(offset) !== ZIP_CENTRAL) return null;
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    names.push(buffer.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
