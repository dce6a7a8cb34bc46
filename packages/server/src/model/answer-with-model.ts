import { z } from 'zod';
import type { Recalled } from '../recall/search.js';
import type { Model, ModelUsage } from './model-client.js';
import { ModelError } from './model-error.js';

/** The answer the model must give (OpenAI structured outputs, strict). */
export const ModelAnswerSchema = z.object({
  answer: z.string().nullable().describe('A short answer from the memories alone; null when they do not support one'),
  memory_ids: z.array(z.number().int()).describe('The ids of the memories the answer rests on'),
  clash: z.boolean().describe('True when the memories disagree about what is asked'),
});

const SYSTEM = `You answer a question about a user from their memories, and from nothing else.
Use only the numbered memories given. When they do not support an answer, answer null; never guess or use outside knowledge.
When the memories disagree about what is asked, set clash to true and say what each says.
Keep the answer short: a phrase or one sentence. memory_ids: the ids of the memories the answer rests on.
Answer with JSON only.`;

/** A written answer from the model, with the memories it rests on. */
export interface ModelAnswer {
  answer: string | null;
  message: string;
  clash: boolean;
  /** The recalled memories the answer rests on, in the model's order (all of them when it names none). */
  used: Recalled[];
  usage: ModelUsage;
}

/**
 * Writes the answer to a question from the recalled memories only. Throws ModelError when the
 * model gives nothing usable, so that the caller answers offline instead.
 */
export async function answerWithModel(model: Model, question: string, recalled: Recalled[], now: Date): Promise<ModelAnswer> {
  const memories = recalled.map((item) => `${item.row.id} (${item.row.date}) ${item.row.text}`).join('\n');
  const user = `Today is ${now.toISOString().slice(0, 10)}.\nQuestion: ${question}\n\nMemories (id, date, text):\n${memories}`;
  const { value, usage } = await model.structured({ name: 'answer', schema: ModelAnswerSchema, system: SYSTEM, user });
  const byId = new Map(recalled.map((item) => [item.row.id, item]));
  const cited = [...new Set(value.memory_ids)].map((id) => byId.get(id)).filter((item) => item !== undefined);
  const answer = value.answer?.trim() || null;
  if (answer !== null && value.memory_ids.length && !cited.length) {
    throw new ModelError('malformed', 'The model cited memories it was not given', usage);
  }
  const used = answer === null || !cited.length ? recalled : cited;
  const count = cited.length;
  return {
    answer,
    message:
      answer === null
        ? 'The memories found do not answer this question.'
        : `Written by ${model.name} from ${count} ${count === 1 ? 'memory' : 'memories'}${value.clash ? '; the memories disagree' : ''}.`,
    clash: answer !== null && value.clash,
    used,
    usage,
  };
}
