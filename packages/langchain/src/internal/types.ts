import type { Engram, FileWriteParams, SearchParams } from '@engram/client';

/** A memory as recall returns it. */
export type Memory = Awaited<ReturnType<Engram['search']>>['memories'][number];

/** all, people, plan, pref or detail. */
export type KindFilter = NonNullable<SearchParams['kind']>;

/** A file's labels: name/value pairs. */
export type Labels = NonNullable<FileWriteParams['labels']>;
