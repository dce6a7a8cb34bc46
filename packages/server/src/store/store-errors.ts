/** The SQLSTATE a database error carries ("40P01"), or undefined for any other error. */
export function sqlStateOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A deadlock or a serialization failure: the database rolled the transaction back whole, and it may be run again. */
export function rolledBackByConflict(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code === '40P01' || code === '40001';
}
