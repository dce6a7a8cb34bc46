/**
 * The normalised form of a fact text used to recognise the same fact twice: lower case,
 * accents and punctuation removed, apostrophes dropped ("Omar's" = "Omars"), runs of
 * spaces made one. It depends only on the text, so it is stable across runs and versions.
 */
export function factFingerprint(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’‘`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
