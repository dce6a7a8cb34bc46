export type { ExportOptions } from './export-lines.js';
export { exportLines, NoSuchSpaceError } from './export-lines.js';
export { fileLines, restoreFile } from './file-lines.js';
export { EXPORT_FORMAT, FORMAT_VERSION, RestoreError } from './format.js';
export { migrateStore } from './migrate-store.js';
export { RECORD_KINDS } from './registry.js';
export type { RestoreOptions, RestoreSummary } from './restore-lines.js';
export { checkLines, highestIdsOf, reserveIds, restoreLines } from './restore-lines.js';
