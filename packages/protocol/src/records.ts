import { z } from 'zod';
import { CountsSchema, DaySchema, MemoryKindSchema, storableText, TimestampSchema } from './common.js';

/** How a source came in. */
export const SourceKindSchema = z.enum(['note', 'page', 'conversation', 'pdf', 'docx', 'file']);
export type SourceKind = z.infer<typeof SourceKindSchema>;

/** Where a source stands in learning. `waiting`: kept and searchable, learned when the plan allows. */
export const SourceStatusSchema = z.enum(['queued', 'learning', 'finished', 'failed', 'waiting']);
export type SourceStatus = z.infer<typeof SourceStatusSchema>;

/** Why a source failed. */
export const SourceErrorSchema = z.object({ type: z.string(), message: z.string() });

/** What was added: a note, a page, a conversation, a file. */
export const SourceSchema = z
  .object({
    id: z.string().meta({ example: 'src_8f2k1m3n4p5q6r7s' }),
    kind: SourceKindSchema,
    title: z.string().nullable(),
    url: z.string().nullable(),
    path: z.string().nullable(),
    status: SourceStatusSchema,
    error: SourceErrorSchema.nullable(),
    memories: z.number().int().meta({ description: 'Memories learned from it' }),
    tokens: z.number().int().meta({ description: 'Tokens of its text' }),
    created_at: TimestampSchema,
    learned_at: TimestampSchema.nullable(),
    attempts: z.number().int().meta({ description: 'Attempts at learning it so far (a worker that stopped mid-way counts one)' }),
    retry_at: TimestampSchema.nullable().meta({ description: 'While it waits after a failed attempt: when the next is due; else null' }),
  })
  .meta({ id: 'Source' });
export type Source = z.infer<typeof SourceSchema>;

/** A memory's standing: only current memories are recalled. */
export const MemoryStatusSchema = z.enum(['current', 'replaced', 'wrong']);
export type MemoryStatus = z.infer<typeof MemoryStatusSchema>;

/** A fact learned from a source. */
export const MemorySchema = z
  .object({
    id: z.number().int(),
    text: z.string().meta({ description: "The service's own wording; relative dates made absolute" }),
    kind: MemoryKindSchema,
    date: DaySchema.meta({ description: 'The day it was said or written' }),
    source: z.object({ id: z.string(), kind: SourceKindSchema, title: z.string().nullable() }),
    about: z.array(z.string()),
    labels: z.record(z.string(), z.string()),
    status: MemoryStatusSchema,
    created_at: TimestampSchema,
    score: z.number().min(0).max(1).optional().meta({ description: 'Relevance 0..1, in recall results' }),
  })
  .meta({ id: 'Memory' });
export type Memory = z.infer<typeof MemorySchema>;

/** The sentence a memory was learned from. */
export const SentenceSchema = z.object({
  text: z.string(),
  message_index: z.number().int().optional(),
  start: z.number().int(),
  end: z.number().int(),
});
export type Sentence = z.infer<typeof SentenceSchema>;

/** One event in a memory's history. */
export const HistoryEventSchema = z.object({
  event: z.enum(['learned', 'linked', 'corrected', 'replaced', 'replaces']),
  at: TimestampSchema,
  memory_id: z.number().int().optional(),
  text: z.string().optional(),
  source_id: z.string().optional(),
});
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

/** A file's labels: up to 20 name/value pairs. */
export const LabelsSchema = z.record(storableText().min(1).max(100), storableText().max(1_000));
export type Labels = z.infer<typeof LabelsSchema>;

/** A file in a listing. */
export const FileRowSchema = z
  .object({ path: z.string(), size: z.number().int(), updated_at: TimestampSchema, labels: LabelsSchema })
  .meta({ id: 'FileRow' });
export type FileRow = z.infer<typeof FileRowSchema>;

/** What a project stands at. */
export const StateOutSchema = z
  .object({
    project: z.string().nullable(),
    goal: z.string().nullable(),
    focus: z.string().nullable(),
    open_items: z.array(z.string()),
    decisions: z.array(z.string()),
    next_steps: z.array(z.string()),
    updated_at: TimestampSchema,
  })
  .meta({ id: 'StateOut' });
export type StateOut = z.infer<typeof StateOutSchema>;

export const IntentionStatusSchema = z.enum(['open', 'done', 'dropped']);
export type IntentionStatus = z.infer<typeof IntentionStatusSchema>;

/** What starts an intention: a date, or a cue in what is said. */
export const TriggerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('date'), at: z.string() }),
  z.object({ type: z.literal('cue'), text: z.string() }),
]);
export type Trigger = z.infer<typeof TriggerSchema>;

/** A promise or plan. */
export const IntentionOutSchema = z
  .object({
    id: z.number().int(),
    text: z.string(),
    status: IntentionStatusSchema,
    due: DaySchema.nullable(),
    triggers: z.array(TriggerSchema),
    project: z.string().nullable(),
    source_id: z.string().nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'IntentionOut' });
export type IntentionOut = z.infer<typeof IntentionOutSchema>;

/** A rule, how-to or lesson, with when it applies and why. */
export const LessonOutSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(['rule', 'how-to', 'lesson']),
    text: z.string(),
    applies_when: z.string().nullable(),
    why: z.string().nullable(),
    project: z.string().nullable(),
    source_id: z.string().nullable(),
    date: DaySchema,
  })
  .meta({ id: 'LessonOut' });
export type LessonOut = z.infer<typeof LessonOutSchema>;

/** Something that happened. */
export const EpisodeOutSchema = z
  .object({
    id: z.number().int(),
    project: z.string().nullable(),
    title: z.string(),
    summary: z.string(),
    date: DaySchema,
    source_id: z.string().nullable(),
  })
  .meta({ id: 'EpisodeOut' });
export type EpisodeOut = z.infer<typeof EpisodeOutSchema>;

/** One question of the nightly memory test. */
export const HealthItemSchema = z
  .object({
    question: z.string(),
    expected: z.string(),
    answer: z.string().nullable(),
    mark: z.enum(['right', 'partly', 'wrong']),
    memory_ids: z.array(z.number().int()),
  })
  .meta({ id: 'HealthItem' });
export type HealthItem = z.infer<typeof HealthItemSchema>;

/** A thing in the graph. */
export const GraphNodeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['person', 'place', 'org', 'thing']),
    memories: z.number().int(),
  })
  .meta({ id: 'GraphNode' });
export type GraphNode = z.infer<typeof GraphNodeSchema>;

/** Two things named in the same remembered sentence; never without a memory behind it. */
export const GraphEdgeSchema = z
  .object({ from: z.string(), to: z.string(), memory_ids: z.array(z.number().int()).min(1) })
  .meta({ id: 'GraphEdge' });
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;

/** A profile line. */
export const ProfileItemSchema = z.object({ text: z.string(), memory_id: z.number().int(), kind: MemoryKindSchema });
export type ProfileItem = z.infer<typeof ProfileItemSchema>;

/** A key limited to one space, as listed (the key text appears only on creation). */
export const KeyOutSchema = z
  .object({
    id: z.number().int(),
    name: z.string().nullable(),
    space: z.string(),
    starts_with: z.string(),
    rpm: z.number().int(),
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable(),
    expires_at: TimestampSchema.nullable(),
    note: z.string().nullable(),
  })
  .meta({ id: 'KeyOut' });
export type KeyOut = z.infer<typeof KeyOutSchema>;

export const UsageStateSchema = z.enum(['ok', 'near', 'over', 'extra', 'paused']);
export type UsageState = z.infer<typeof UsageStateSchema>;

export const PlanSchema = z.enum(['free', 'pro', 'max']);
export type Plan = z.infer<typeof PlanSchema>;

/** What an account (or one space's share of it) has used this month. */
export const UsageSchema = z
  .object({
    plan: PlanSchema,
    trial: z.boolean(),
    period_start: TimestampSchema,
    period_end: TimestampSchema,
    learned_tokens: z.number().int(),
    included_tokens: z.number().int(),
    waiting_tokens: z.number().int(),
    answers: z.number().int(),
    included_answers: z.number().int(),
    extra_on: z.boolean(),
    extra_cap_usd: z.number(),
    extra_used_usd: z.number(),
    state: UsageStateSchema,
    model_input_tokens: z.number().int().meta({ description: 'Tokens sent to the optional model this month (0 when none is set)' }),
    model_output_tokens: z.number().int().meta({ description: 'Tokens the optional model gave back this month' }),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof UsageSchema>;

/** A space in the account's listing. */
export const SpaceRowSchema = z
  .object({ name: z.string(), created_at: TimestampSchema, memories: z.number().int(), sources: z.number().int() })
  .meta({ id: 'SpaceRow' });
export type SpaceRow = z.infer<typeof SpaceRowSchema>;

export { CountsSchema };
