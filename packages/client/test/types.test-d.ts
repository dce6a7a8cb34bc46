// Checked by `tsc -p tsconfig.json` and by vitest's typecheck mode: every method answers with
// exactly the type the protocol's zod schema infers.
import type {
  AskResponseSchema,
  BatchResponseSchema,
  BriefingResponseSchema,
  BriefResponseSchema,
  ContextResponseSchema,
  CorrectMemoryResponseSchema,
  CreatedKeySchema,
  DeleteFilesResponseSchema,
  DeleteMemoryResponseSchema,
  DeleteSourceResponseSchema,
  EpisodesResponseSchema,
  EraseSpaceResponseSchema,
  FileListResponseSchema,
  FileResponseSchema,
  FileRowSchema,
  GraphResponseSchema,
  IntentionResponseSchema,
  IntentionsResponseSchema,
  LessonsResponseSchema,
  ListKeysResponseSchema,
  ListMemoriesResponseSchema,
  ListSourcesResponseSchema,
  ListSpacesResponseSchema,
  MemoryDetailResponseSchema,
  MemoryHealthResponseSchema,
  MemorySchema,
  MoveFilesResponseSchema,
  NowResponseSchema,
  ProfileResponseSchema,
  RevokeKeyResponseSchema,
  SearchResponseSchema,
  SourceResponseSchema,
  SourceSchema,
  SpaceRowSchema,
  UsageResponseSchema,
  WriteFileResponseSchema,
} from '@engram/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { Engram, PagePromise } from '../src/index.js';

type Answer<Method extends (...args: any[]) => PromiseLike<unknown>> = Awaited<ReturnType<Method>>;
type Infer<Schema extends z.ZodType> = z.infer<Schema>;
/** The body fields of a page (its items and paging methods aside). */
type BodyOf<P> = Omit<P, 'items' | 'hasNextPage' | 'getNextPage' | 'iterPages' | typeof Symbol.asyncIterator>;
/** The item a listing iterates over. */
type ItemOf<P> = P extends PagePromise<any, infer Item> ? Item : never;

declare const engram: Engram;

describe('response types match the protocol schemas', () => {
  it('recall and briefing', () => {
    expectTypeOf<Answer<Engram['context']>>().toEqualTypeOf<Infer<typeof ContextResponseSchema>>();
    expectTypeOf<Answer<Engram['ask']>>().toEqualTypeOf<Infer<typeof AskResponseSchema>>();
    expectTypeOf<Answer<Engram['search']>>().toEqualTypeOf<Infer<typeof SearchResponseSchema>>();
    expectTypeOf<Answer<Engram['briefing']>>().toEqualTypeOf<Infer<typeof BriefingResponseSchema>>();
    expectTypeOf<Answer<Engram['now']>>().toEqualTypeOf<Infer<typeof NowResponseSchema>>();
    expectTypeOf<Answer<Engram['episodes']>>().toEqualTypeOf<Infer<typeof EpisodesResponseSchema>>();
    expectTypeOf<Answer<Engram['lessons']>>().toEqualTypeOf<Infer<typeof LessonsResponseSchema>>();
    expectTypeOf<Answer<Engram['memoryHealth']>>().toEqualTypeOf<Infer<typeof MemoryHealthResponseSchema>>();
    expectTypeOf<Answer<Engram['memoryHealth']['run']>>().toEqualTypeOf<Infer<typeof MemoryHealthResponseSchema>>();
    expectTypeOf<Answer<Engram['profile']>>().toEqualTypeOf<Infer<typeof ProfileResponseSchema>>();
    expectTypeOf<Answer<Engram['brief']>>().toEqualTypeOf<Infer<typeof BriefResponseSchema>>();
    expectTypeOf<Answer<Engram['graph']>>().toEqualTypeOf<Infer<typeof GraphResponseSchema>>();
    expectTypeOf<Answer<Engram['usage']>>().toEqualTypeOf<Infer<typeof UsageResponseSchema>>();
  });

  it('memories', () => {
    expectTypeOf<Answer<Engram['memories']['add']>>().toEqualTypeOf<Infer<typeof SourceResponseSchema>>();
    expectTypeOf<Answer<Engram['memories']['upload']>>().toEqualTypeOf<Infer<typeof SourceResponseSchema>>();
    expectTypeOf<Answer<Engram['memories']['batch']>>().toEqualTypeOf<Infer<typeof BatchResponseSchema>>();
    expectTypeOf<Answer<Engram['memories']['get']>>().toEqualTypeOf<Infer<typeof MemoryDetailResponseSchema>>();
    expectTypeOf<Answer<Engram['memories']['correct']>>().toEqualTypeOf<Infer<typeof CorrectMemoryResponseSchema>>();
    expectTypeOf<Answer<Engram['memories']['delete']>>().toEqualTypeOf<Infer<typeof DeleteMemoryResponseSchema>>();
    expectTypeOf<BodyOf<Answer<Engram['memories']['list']>>>().toEqualTypeOf<Infer<typeof ListMemoriesResponseSchema>>();
    expectTypeOf<ItemOf<ReturnType<Engram['memories']['list']>>>().toEqualTypeOf<Infer<typeof MemorySchema>>();
  });

  it('sources', () => {
    expectTypeOf<Answer<Engram['sources']['get']>>().toEqualTypeOf<Infer<typeof SourceResponseSchema>>();
    expectTypeOf<Answer<Engram['sources']['wait']>>().toEqualTypeOf<Infer<typeof SourceSchema>>();
    expectTypeOf<Answer<Engram['sources']['delete']>>().toEqualTypeOf<Infer<typeof DeleteSourceResponseSchema>>();
    expectTypeOf<BodyOf<Answer<Engram['sources']['list']>>>().toEqualTypeOf<Infer<typeof ListSourcesResponseSchema>>();
    expectTypeOf<ItemOf<ReturnType<Engram['sources']['list']>>>().toEqualTypeOf<Infer<typeof SourceSchema>>();
  });

  it('files', () => {
    expectTypeOf<Answer<Engram['files']['write']>>().toEqualTypeOf<Infer<typeof WriteFileResponseSchema>>();
    expectTypeOf<Answer<Engram['files']['read']>>().toEqualTypeOf<Infer<typeof FileResponseSchema>>();
    expectTypeOf<Answer<Engram['files']['move']>>().toEqualTypeOf<Infer<typeof MoveFilesResponseSchema>>();
    expectTypeOf<Answer<Engram['files']['delete']>>().toExtend<Infer<typeof DeleteFilesResponseSchema>>();
    expectTypeOf<Answer<Engram['files']['deleteByPrefix']>>().toExtend<Infer<typeof DeleteFilesResponseSchema>>();
    expectTypeOf<Answer<Engram['files']['delete']>>().toEqualTypeOf<{ deleted: number; path: string }>();
    expectTypeOf<Answer<Engram['files']['deleteByPrefix']>>().toEqualTypeOf<{ deleted: number; more: boolean }>();
    expectTypeOf<BodyOf<Answer<Engram['files']['list']>>>().toEqualTypeOf<Infer<typeof FileListResponseSchema>>();
    expectTypeOf<ItemOf<ReturnType<Engram['files']['list']>>>().toEqualTypeOf<Infer<typeof FileRowSchema>>();
  });

  it('intentions, keys and spaces', () => {
    expectTypeOf<Answer<Engram['intentions']['list']>>().toEqualTypeOf<Infer<typeof IntentionsResponseSchema>>();
    expectTypeOf<Answer<Engram['intentions']['update']>>().toEqualTypeOf<Infer<typeof IntentionResponseSchema>>();
    expectTypeOf<Answer<Engram['keys']['create']>>().toEqualTypeOf<Infer<typeof CreatedKeySchema>>();
    expectTypeOf<Answer<Engram['keys']['list']>>().toEqualTypeOf<Infer<typeof ListKeysResponseSchema>>();
    expectTypeOf<Answer<Engram['keys']['revoke']>>().toEqualTypeOf<Infer<typeof RevokeKeyResponseSchema>>();
    expectTypeOf<Answer<Engram['spaces']['erase']>>().toEqualTypeOf<Infer<typeof EraseSpaceResponseSchema>>();
    expectTypeOf<BodyOf<Answer<Engram['spaces']['list']>>>().toEqualTypeOf<Infer<typeof ListSpacesResponseSchema>>();
    expectTypeOf<ItemOf<ReturnType<Engram['spaces']['list']>>>().toEqualTypeOf<Infer<typeof SpaceRowSchema>>();
  });

  it('request parameters take numbers and refuse what the API refuses', () => {
    expectTypeOf(engram.memories.list).toBeCallableWith({ kind: 'people', limit: 20, cursor: 40 });
    expectTypeOf(engram.sources.get).toBeCallableWith('src_1', { wait: 30 });
    expectTypeOf(engram.briefing).toBeCallableWith({ budget_chars: 4000 });
    // @ts-expect-error a kind the API does not have
    engram.memories.list({ kind: 'everything' });
    // @ts-expect-error limits are numbers
    engram.memories.list({ limit: '20' });
    // @ts-expect-error a memory id is a number
    engram.memories.get('42');
    // @ts-expect-error the intention statuses are open, done and dropped
    engram.intentions.update(1, { status: 'finished' });
  });
});
