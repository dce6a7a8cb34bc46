import type { MemoryKind } from '@engram/protocol';
import { sql } from 'kysely';
import type { Db } from './database.js';
import type { Scope } from './scope.js';

/** What profiles, briefs and the graph read of a current memory. */
export interface NamedMemory {
  id: number;
  text: string;
  kind: MemoryKind;
  date: string;
  about: string[];
  /** What each name of `about` names; null for memories learned before the learner recorded it. */
  name_types: string[] | null;
  /** Whether the fact lasts; null for memories learned before the learner recorded it. */
  lasting: boolean | null;
  /** Whether the fact speaks of the owner ("The user"); null for memories learned before the learner recorded it. */
  owner: boolean | null;
  sentence_text: string;
  /** Whether it replaced an earlier fact of the same slot (the latest of a fact that changed). */
  replaces: boolean;
  /** A speaker's remark about something other than themselves. */
  reported: boolean;
}

/**
 * At most this many current memories, the newest, are read for a profile, a brief or the
 * graph of one space (docs/api.md says so): enough for years of conversation, and a bound on
 * the time one call may take.
 */
export const NAMED_MEMORIES_CAP = 20_000;

/** The current, learned memories of a scope that name someone or something, or speak of the owner. */
const naming = (scope: Scope) => sql`
  m.account_id = ${scope.accountId} and m.space = ${scope.space} and m.status = 'current' and not m.raw
    and (cardinality(m.about) > 0 or m.owner or (m.owner is null and m.text ~* '\\mthe user\\M'))`;

/**
 * The current memories of the scope that name someone or something, or that speak of the
 * owner, newest first: learned facts only (not the raw text of a source waiting to be learned).
 * They come back as one JSON value, which costs the embedded store a third of what as many
 * rows cost.
 */
export async function namedMemories(db: Db, scope: Scope): Promise<NamedMemory[]> {
  const { rows } = await sql<{ rows: string }>`
    select coalesce(json_agg(json_build_array(m.id, m.text, m.kind, m.date, m.about, m.name_types, m.lasting, m.owner,
      m.sentence_text, m.replaces, m.reported) order by m.created_at desc, m.id desc), '[]')::text as rows
    from (
      select m.id, m.text, m.kind, to_char(m.date, 'YYYY-MM-DD') as date, m.about, m.name_types, m.lasting, m.owner, m.sentence_text,
        exists (select 1 from memory_events e where e.account_id = m.account_id and e.memory_id = m.id and e.event = 'replaces') as replaces, m.reported, m.created_at
      from memories m where ${naming(scope)}
      order by m.created_at desc, m.id desc limit ${NAMED_MEMORIES_CAP}) m`.execute(db);
  return (JSON.parse(rows[0]!.rows) as unknown[][]).map(
    ([id, text, kind, date, about, name_types, lasting, owner, sentence_text, replaces, reported]) =>
      ({
        id,
        text,
        kind,
        date,
        about,
        name_types,
        lasting,
        owner,
        sentence_text,
        replaces,
        reported,
      }) as NamedMemory,
  );
}

/** What the graph reads of a memory: only what names what. */
export type GraphMemory = Pick<NamedMemory, 'id' | 'about' | 'name_types' | 'owner' | 'text'>;

/**
 * The current memories of the scope that name someone or something, or speak of the owner,
 * newest first, with only what the graph reads (the text only of memories learned before the
 * learner recorded the owner, whose wording then tells), as one JSON value (see namedMemories).
 */
export async function graphMemories(db: Db, scope: Scope): Promise<GraphMemory[]> {
  const { rows } = await sql<{ rows: string }>`
    select coalesce(json_agg(json_build_array(m.id, m.about, m.name_types, m.owner, m.text) order by m.created_at desc, m.id desc), '[]')::text as rows
    from (
      select m.id, m.about, m.name_types, m.owner, case when m.owner is null then m.text else '' end as text, m.created_at
      from memories m where ${naming(scope)}
      order by m.created_at desc, m.id desc limit ${NAMED_MEMORIES_CAP}) m`.execute(db);
  return (JSON.parse(rows[0]!.rows) as unknown[][]).map(
    ([id, about, name_types, owner, text]) => ({ id, about, name_types, owner, text }) as GraphMemory,
  );
}

/**
 * What a space's graph is drawn from, in one small read: its memory version (see
 * store/memory-index.ts) and the count of its conversations (whose user messages name the
 * owner). A graph computed at one signature holds until it changes; null for a space not made.
 */
export async function graphSignature(db: Db, scope: Scope): Promise<string | null> {
  const { rows } = await sql<{ signature: string }>`
    select s.memories_version::text || ':' || (select count(*) from sources c
      where c.account_id = ${scope.accountId} and c.space = ${scope.space} and c.messages is not null)::text as signature
    from spaces s where s.account_id = ${scope.accountId} and s.name = ${scope.space}`.execute(db);
  return rows[0]?.signature ?? null;
}

/**
 * The name the space's conversations give most often to user messages (the person the space
 * belongs to, when the app names them), or null when no user message carries a name.
 */
export async function ownerNameOf(db: Db, scope: Scope): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`
    select btrim(message ->> 'name') as name
    from sources s, jsonb_array_elements(case when jsonb_typeof(s.messages) = 'array' then s.messages else '[]'::jsonb end) message
    where s.account_id = ${scope.accountId} and s.space = ${scope.space} and s.messages is not null
      and message ->> 'role' = 'user' and coalesce(btrim(message ->> 'name'), '') <> ''
    group by 1 order by count(*) desc, 1 limit 1`.execute(db);
  return rows[0]?.name ?? null;
}
