import { z } from 'zod';
import {
  bodyInt,
  bodyLimitSchema,
  CountsSchema,
  CursorSchema,
  hasUnstorableText,
  KindFilterSchema,
  limitSchema,
  SpaceSchema,
  storableText,
  TimestampSchema,
  UNSTORABLE_TEXT_MESSAGE,
} from './common.js';
import { LIMITS } from './limits.js';
import {
  EpisodeOutSchema,
  FileRowSchema,
  GraphEdgeSchema,
  GraphNodeSchema,
  HealthItemSchema,
  HistoryEventSchema,
  IntentionOutSchema,
  IntentionStatusSchema,
  KeyOutSchema,
  LabelsSchema,
  LessonOutSchema,
  MemorySchema,
  ProfileItemSchema,
  SentenceSchema,
  SourceSchema,
  SpaceRowSchema,
  StateOutSchema,
  UsageSchema,
} from './records.js';

const space = SpaceSchema.optional();
/** The project a save belongs to (briefings); left out means no project, unless the text names one in a heading. */
const saveProject = storableText().max(LIMITS.projectChars).optional().meta({
  description:
    'The project this belongs to (up to 200 characters). Briefings, now, episodes and lessons group by it; left out, a "Project: X" heading in the text (or a file\'s `project` label) names it.',
});
const question = storableText().min(1).max(LIMITS.questionChars);

/* ----------------------------------------------------------------- memories */

/** A block or part of a message's content; only `{type: "text", text}` is read. */
export const ContentPartSchema = z
  .looseObject({ type: storableText(), text: storableText().optional() })
  .refine((part) => !hasUnstorableText(part), { message: UNSTORABLE_TEXT_MESSAGE });

/** One message of a conversation. */
export const MessageSchema = z
  .object({
    role: z.enum(['user', 'assistant', 'system', 'developer', 'tool']),
    content: z.union([storableText(), z.array(ContentPartSchema), z.null()]),
    name: storableText().max(200).nullish(),
    at: z.iso.datetime({ offset: true, local: true }).or(z.iso.date()).nullish().meta({
      description: 'When it was said (ISO 8601); relative dates resolve against it',
    }),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;

const addFields = {
  text: storableText().min(1).max(LIMITS.textChars).optional(),
  url: storableText().min(LIMITS.urlMinChars).max(LIMITS.urlMaxChars).optional(),
  messages: z.array(MessageSchema).min(1).max(LIMITS.messages).optional(),
  title: storableText().max(LIMITS.titleChars).optional(),
  project: saveProject,
  space,
};

function exactlyOneInput(value: { text?: unknown; url?: unknown; messages?: unknown }, context: z.RefinementCtx) {
  const given = (['text', 'url', 'messages'] as const).filter((field) => value[field] !== undefined);
  if (given.length !== 1) {
    context.addIssue({
      code: 'custom',
      path: given.length ? [given[1]!] : ['text'],
      message: given.length ? 'Give one of text, url or messages, not several' : 'Give one of text, url or messages',
    });
  }
}

/** POST /v1/memories body: one of text, url or messages. */
export const AddMemoryRequestSchema = z.object(addFields).superRefine(exactlyOneInput).meta({ id: 'AddIn' });
export type AddMemoryRequest = z.input<typeof AddMemoryRequestSchema>;

/** POST /v1/memories answer. */
export const SourceResponseSchema = z.object({ source: SourceSchema });
export type SourceResponse = z.infer<typeof SourceResponseSchema>;

/** POST /v1/memories/batch body. Items are checked one by one, so a bad item fails alone. */
export const BatchRequestSchema = z.object({
  items: z.array(z.unknown()).min(1).max(LIMITS.batchItems),
  space,
});
export type BatchRequest = { items: AddMemoryRequest[]; space?: string };

/** One item's result in a batch. */
export const BatchRowSchema = z
  .discriminatedUnion('ok', [
    z.object({ index: z.number().int(), ok: z.literal(true), source: SourceSchema }),
    z.object({
      index: z.number().int(),
      ok: z.literal(false),
      error: z.object({ type: z.string(), message: z.string(), details: z.unknown().optional() }),
    }),
  ])
  .meta({ id: 'BatchRow' });
export type BatchRow = z.infer<typeof BatchRowSchema>;

export const BatchResponseSchema = z.object({
  results: z.array(BatchRowSchema),
  added: z.number().int(),
  failed: z.number().int(),
});
export type BatchResponse = z.infer<typeof BatchResponseSchema>;

/** GET /v1/memories query. */
export const ListMemoriesQuerySchema = z.object({
  kind: KindFilterSchema.default('all'),
  limit: limitSchema(LIMITS.memoriesListLimit),
  cursor: CursorSchema,
  space,
});
export type ListMemoriesQuery = z.input<typeof ListMemoriesQuerySchema>;

export const ListMemoriesResponseSchema = z.object({
  memories: z.array(MemorySchema),
  counts: CountsSchema,
  total: z.number().int(),
  next: z.number().int().optional(),
});
export type ListMemoriesResponse = z.infer<typeof ListMemoriesResponseSchema>;

/** A `space` query parameter alone. */
export const SpaceQuerySchema = z.object({ space });
export type SpaceQuery = z.input<typeof SpaceQuerySchema>;

/** GET /v1/memories/{id} answer. */
export const MemoryDetailResponseSchema = z.object({
  memory: MemorySchema,
  sentence: SentenceSchema,
  history: z.array(HistoryEventSchema),
});
export type MemoryDetailResponse = z.infer<typeof MemoryDetailResponseSchema>;

/** PATCH /v1/memories/{id} body: what is right. */
export const CorrectMemoryRequestSchema = z.object({
  text: storableText().min(1).max(LIMITS.correctionChars),
  space,
});
export type CorrectMemoryRequest = z.input<typeof CorrectMemoryRequestSchema>;

export const CorrectMemoryResponseSchema = z.object({ memory: MemorySchema, source: SourceSchema });
export type CorrectMemoryResponse = z.infer<typeof CorrectMemoryResponseSchema>;

export const DeleteMemoryResponseSchema = z.object({ id: z.number().int(), deleted: z.literal(true) });
export type DeleteMemoryResponse = z.infer<typeof DeleteMemoryResponseSchema>;

/* ------------------------------------------------------------------- files */

/** PUT /v1/files body. */
export const WriteFileRequestSchema = z.object({
  path: storableText().min(1).max(LIMITS.filePathChars),
  text: storableText().max(LIMITS.textChars),
  labels: LabelsSchema.optional().refine((labels) => !labels || Object.keys(labels).length <= LIMITS.fileLabels, {
    message: `At most ${LIMITS.fileLabels} labels`,
  }),
  learn: z
    .boolean()
    .optional()
    .meta({ description: 'false keeps the text this write adds without learning it (nor making it searchable); default true' }),
  project: saveProject,
  space,
});
export type WriteFileRequest = z.input<typeof WriteFileRequestSchema>;

export const WriteFileResponseSchema = z.object({
  path: z.string(),
  size: z.number().int(),
  updated_at: TimestampSchema,
  created: z.boolean(),
  source: SourceSchema,
});
export type WriteFileResponse = z.infer<typeof WriteFileResponseSchema>;

/** GET /v1/files query: exactly one of path and prefix. */
export const ReadFilesQuerySchema = z.object({
  path: storableText().max(LIMITS.filePathChars).optional(),
  prefix: storableText().max(LIMITS.filePathChars).optional(),
  limit: limitSchema(LIMITS.filesListLimit),
  cursor: CursorSchema,
  space,
});
export type ReadFilesQuery = z.input<typeof ReadFilesQuerySchema>;

export const FileResponseSchema = z.object({
  path: z.string(),
  text: z.string(),
  size: z.number().int(),
  updated_at: TimestampSchema,
  labels: LabelsSchema,
});
export type FileResponse = z.infer<typeof FileResponseSchema>;

export const FileListResponseSchema = z.object({
  files: z.array(FileRowSchema),
  total: z.number().int(),
  next: z.number().int().optional(),
});
export type FileListResponse = z.infer<typeof FileListResponseSchema>;

/** DELETE /v1/files query: exactly one of path and prefix. */
export const DeleteFilesQuerySchema = z.object({
  path: storableText().max(LIMITS.filePathChars).optional(),
  prefix: storableText().max(LIMITS.filePathChars).optional(),
  space,
});
export type DeleteFilesQuery = z.input<typeof DeleteFilesQuerySchema>;

export const DeleteFilesResponseSchema = z.union([
  z.object({ deleted: z.number().int(), path: z.string() }),
  z.object({ deleted: z.number().int(), more: z.boolean() }),
]);
export type DeleteFilesResponse = z.infer<typeof DeleteFilesResponseSchema>;

export const MoveFilesRequestSchema = z.object({
  from: storableText().min(1).max(LIMITS.filePathChars),
  to: storableText().min(1).max(LIMITS.filePathChars),
  space,
});
export type MoveFilesRequest = z.input<typeof MoveFilesRequestSchema>;

export const MoveFilesResponseSchema = z.object({ moved: z.number().int() });
export type MoveFilesResponse = z.infer<typeof MoveFilesResponseSchema>;

/* ------------------------------------------------------------------ recall */

/** Recall filter on file labels: every pair must match. */
const labelsFilter = LabelsSchema.optional().meta({ description: 'Only memories whose file carries all these labels' });

export const ContextRequestSchema = z.object({
  question,
  limit: bodyLimitSchema(LIMITS.contextLimit),
  kind: KindFilterSchema.default('all'),
  with_sources: z.boolean().default(true),
  labels: labelsFilter,
  space,
});
export type ContextRequest = z.input<typeof ContextRequestSchema>;

export const ContextResponseSchema = z.object({
  question: z.string(),
  context: z.string().min(1),
  memories: z.array(MemorySchema),
  used: z.number().int(),
  empty: z.boolean(),
});
export type ContextResponse = z.infer<typeof ContextResponseSchema>;

export const AskRequestSchema = z.object({ question, labels: labelsFilter, space });
export type AskRequest = z.input<typeof AskRequestSchema>;

export const AskResponseSchema = z.object({
  question: z.string(),
  answer: z.string().nullable(),
  message: z.string(),
  memories: z.array(MemorySchema),
  clash: z.boolean(),
});
export type AskResponse = z.infer<typeof AskResponseSchema>;

export const SearchRequestSchema = z.object({
  q: question,
  limit: bodyLimitSchema(LIMITS.searchLimit),
  kind: KindFilterSchema.default('all'),
  labels: labelsFilter,
  space,
});
export type SearchRequest = z.input<typeof SearchRequestSchema>;

export const SearchResponseSchema = z.object({
  memories: z.array(MemorySchema),
  counts: CountsSchema,
  total: z.number().int(),
  next: z.number().int().optional(),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

/* ---------------------------------------------------------------- briefing */

const project = storableText().max(LIMITS.projectChars);

export const BriefingRequestSchema = z.object({
  project: project.optional(),
  cue: storableText().max(LIMITS.briefingCueChars).default(''),
  budget_chars: bodyInt(LIMITS.briefingBudgetChars.min, LIMITS.briefingBudgetChars.max).default(LIMITS.briefingBudgetChars.default),
  space,
});
export type BriefingRequest = z.input<typeof BriefingRequestSchema>;

export const BriefingResponseSchema = z.object({
  project: z.string().nullable(),
  briefing: z.string(),
  now: z.array(StateOutSchema),
  due: z.array(IntentionOutSchema),
  lessons: z.array(LessonOutSchema),
  episodes: z.array(EpisodeOutSchema),
  memories: z.array(MemorySchema),
});
export type BriefingResponse = z.infer<typeof BriefingResponseSchema>;

export const NowQuerySchema = z.object({ project: project.optional(), space });
export type NowQuery = z.input<typeof NowQuerySchema>;
export const NowResponseSchema = z.object({ now: z.array(StateOutSchema) });
export type NowResponse = z.infer<typeof NowResponseSchema>;

export const EpisodesQuerySchema = z.object({
  project: project.optional(),
  limit: limitSchema(LIMITS.episodesListLimit),
  space,
});
export type EpisodesQuery = z.input<typeof EpisodesQuerySchema>;
export const EpisodesResponseSchema = z.object({ episodes: z.array(EpisodeOutSchema) });
export type EpisodesResponse = z.infer<typeof EpisodesResponseSchema>;

export const LessonsQuerySchema = z.object({
  project: project.optional(),
  limit: limitSchema(LIMITS.lessonsListLimit),
  space,
});
export type LessonsQuery = z.input<typeof LessonsQuerySchema>;
export const LessonsResponseSchema = z.object({ lessons: z.array(LessonOutSchema) });
export type LessonsResponse = z.infer<typeof LessonsResponseSchema>;

export const IntentionsQuerySchema = z.object({
  status: IntentionStatusSchema.default('open'),
  limit: limitSchema(LIMITS.intentionsListLimit),
  space,
});
export type IntentionsQuery = z.input<typeof IntentionsQuerySchema>;
export const IntentionsResponseSchema = z.object({ intentions: z.array(IntentionOutSchema) });
export type IntentionsResponse = z.infer<typeof IntentionsResponseSchema>;

export const UpdateIntentionRequestSchema = z.object({ status: IntentionStatusSchema.default('done'), space });
export type UpdateIntentionRequest = z.input<typeof UpdateIntentionRequestSchema>;
export const IntentionResponseSchema = z.object({ intention: IntentionOutSchema });
export type IntentionResponse = z.infer<typeof IntentionResponseSchema>;

/** POST /v1/memory-health/run body: the space to test now. */
export const MemoryHealthRunRequestSchema = z.object({ space });
export type MemoryHealthRunRequest = z.input<typeof MemoryHealthRunRequestSchema>;

export const MemoryHealthResponseSchema = z.object({
  health: z.number().min(0).max(1).nullable(),
  tested_at: TimestampSchema.nullable(),
  asked: z.number().int(),
  score: z.number(),
  items: z.array(HealthItemSchema),
});
export type MemoryHealthResponse = z.infer<typeof MemoryHealthResponseSchema>;

/* ------------------------------------------------------- people and graph */

/** Whom a profile or brief is of: a name (case and a possessive ignored, a first name alone when unambiguous), or "I"/"me" for the owner; left out, the owner. Blank is refused. */
const subject = storableText()
  .max(LIMITS.subjectChars)
  .refine((value) => value.trim() !== '', 'a blank subject is refused; leave it out for the owner')
  .optional()
  .meta({
    description:
      'A name (case and possessive ignored; a first name alone when unambiguous), or "I"/"me" for the owner; left out, the owner',
  });

export const ProfileQuerySchema = z.object({ subject, space });
export type ProfileQuery = z.input<typeof ProfileQuerySchema>;
export const ProfileResponseSchema = z.object({
  subject: z.string(),
  lasting: z.array(ProfileItemSchema),
  current: z.array(ProfileItemSchema),
  grouped: z.record(z.string(), z.array(ProfileItemSchema)),
  memories: z.number().int(),
});
export type ProfileResponse = z.infer<typeof ProfileResponseSchema>;

export const BriefQuerySchema = z.object({
  subject,
  limit: limitSchema(LIMITS.briefListLimit),
  space,
});
export type BriefQuery = z.input<typeof BriefQuerySchema>;
export const BriefResponseSchema = z.object({
  subject: z.string(),
  summary: z.string(),
  memories: z.array(MemorySchema),
  total: z.number().int(),
});
export type BriefResponse = z.infer<typeof BriefResponseSchema>;

export const GraphQuerySchema = z.object({
  limit: limitSchema(LIMITS.graphNodeLimit).meta({
    description: 'At most this many nodes, those most memories name first (1 to 1000, default 200)',
  }),
  space,
});
export type GraphQuery = z.input<typeof GraphQuerySchema>;
export const GraphResponseSchema = z.object({ nodes: z.array(GraphNodeSchema), edges: z.array(GraphEdgeSchema) });
export type GraphResponse = z.infer<typeof GraphResponseSchema>;

/* ----------------------------------------------------------------- sources */

export const ListSourcesQuerySchema = z.object({
  limit: limitSchema(LIMITS.sourcesListLimit),
  cursor: CursorSchema,
  space,
});
export type ListSourcesQuery = z.input<typeof ListSourcesQuerySchema>;
export const ListSourcesResponseSchema = z.object({
  sources: z.array(SourceSchema),
  total: z.number().int(),
  next: z.number().int().optional(),
});
export type ListSourcesResponse = z.infer<typeof ListSourcesResponseSchema>;

export const GetSourceQuerySchema = z.object({
  wait: z.coerce
    .number<number | string>()
    .min(LIMITS.sourceWaitSeconds.min)
    .max(LIMITS.sourceWaitSeconds.max)
    .default(LIMITS.sourceWaitSeconds.default),
  space,
});
export type GetSourceQuery = z.input<typeof GetSourceQuerySchema>;

export const DeleteSourceResponseSchema = z.object({
  id: z.string(),
  deleted: z.literal(true),
  memories_deleted: z.number().int(),
});
export type DeleteSourceResponse = z.infer<typeof DeleteSourceResponseSchema>;

/* -------------------------------------------------------------------- keys */

export const CreateKeyRequestSchema = z.object({
  name: storableText().max(LIMITS.keyNameChars).optional(),
  rpm: z.number().int().min(LIMITS.keyRpm.min).max(LIMITS.keyRpm.max).default(LIMITS.keyRpm.default),
  expires_at: storableText().min(1).max(LIMITS.keyExpiresAtChars).optional().meta({
    description: 'An ISO 8601 time, or a date (YYYY-MM-DD) the key works through, in UTC',
  }),
  note: storableText().max(1_000).optional(),
  space,
});
export type CreateKeyRequest = z.input<typeof CreateKeyRequestSchema>;

export const CreatedKeySchema = KeyOutSchema.extend({ key: z.string() }).meta({ id: 'CreatedKey' });
export type CreatedKey = z.infer<typeof CreatedKeySchema>;

export const ListKeysResponseSchema = z.object({ keys: z.array(KeyOutSchema) });
export type ListKeysResponse = z.infer<typeof ListKeysResponseSchema>;

export const RevokeKeyResponseSchema = z.object({ id: z.number().int(), space: z.string(), revoked: z.boolean() });
export type RevokeKeyResponse = z.infer<typeof RevokeKeyResponseSchema>;

/* ------------------------------------------------------- spaces and usage */

export const ListSpacesQuerySchema = z.object({
  limit: limitSchema(LIMITS.spacesListLimit),
  cursor: CursorSchema,
});
export type ListSpacesQuery = z.input<typeof ListSpacesQuerySchema>;
export const ListSpacesResponseSchema = z.object({
  spaces: z.array(SpaceRowSchema),
  total: z.number().int(),
  next: z.number().int().optional(),
});
export type ListSpacesResponse = z.infer<typeof ListSpacesResponseSchema>;

export const EraseSpaceResponseSchema = z.object({ space: z.string(), erased: z.literal(true) });
export type EraseSpaceResponse = z.infer<typeof EraseSpaceResponseSchema>;

export const UsageResponseSchema = UsageSchema;
export type UsageResponse = z.infer<typeof UsageResponseSchema>;

export const HealthzResponseSchema = z.object({ ok: z.literal(true) });
