import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';

/** The `format` of every export's header line. */
export const EXPORT_FORMAT = 'engram-export';

/**
 * The version of the export format this release writes, and the newest it restores. A release
 * that adds a kind of record (or changes a line) raises it, so that an older release refuses
 * the file clearly instead of leaving records out. Version 2 added state items, intentions,
 * lessons, episodes and memory-health runs, and the project and attempts of sources and the
 * name types, lasting and owner marks of memories; a version-1 file restores as it is (it
 * simply lacks them).
 */
export const FORMAT_VERSION = 2;

/** A record of an export: one JSON line, its kind in `type`. */
export type ExportLine = { type: string } & Record<string, unknown>;

/** A file or stream that cannot be restored, with the line at fault when there is one. */
export class RestoreError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'RestoreError';
  }
}

/**
 * A timestamp as exported: ISO 8601 in UTC to the microsecond, as Postgres keeps it, so that
 * what is restored sorts exactly as it did (JavaScript dates stop at milliseconds).
 */
export const iso = (column: RawBuilder<unknown>) =>
  sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
