import type { HealthItem } from '@engram/protocol';
import { z } from 'zod';
import type { MemoryRow } from '../store/memory-repository.js';
import type { Model, ModelUsage } from './model-client.js';

/** The questions the model writes from a day's memories (OpenAI structured outputs, strict). */
export const ModelQuestionsSchema = z.object({
  questions: z.array(
    z.object({
      question: z.string().describe('A question a person could ask later, answered by one memory'),
      expected: z.string().describe('The short answer that memory gives'),
      memory_id: z.number().int().describe('The id of the memory that answers it'),
    }),
  ),
});

/** The model's marks of the answers (OpenAI structured outputs, strict). */
export const ModelMarksSchema = z.object({
  marks: z.array(z.object({ index: z.number().int(), mark: z.enum(['right', 'partly', 'wrong']) })),
});

const WRITE = `You test a user's long-term memory. From the numbered memories, write questions that a person
might ask about them later, each answered by exactly one memory: who, what, when, where, how many.
The expected answer is short (a name, a date, a place, a phrase) and taken from that memory.
Write at most the number of questions asked for; skip memories that answer nothing worth asking. Answer with JSON only.`;

const MARK = `You mark answers given from a user's memory. For each numbered item, compare the answer with the
expected answer: right when it holds what the expected answer says (wording and date formats may differ),
partly when it holds some of it, wrong when it holds none of it, contradicts it, or is empty. Answer with JSON only.`;

/** A question the model wrote, with the memory that answers it. */
export interface ModelQuestion {
  question: string;
  expected: string;
  memoryId: number;
}

/** Up to `most` questions written by the model from memories; questions citing a memory not shown are dropped. */
export async function writeQuestionsWithModel(
  model: Model,
  memories: Pick<MemoryRow, 'id' | 'text' | 'date'>[],
  most: number,
): Promise<{ questions: ModelQuestion[]; usage: ModelUsage }> {
  const shown = memories.slice(0, 200);
  const ids = new Set(shown.map((memory) => memory.id));
  const user = `Write at most ${most} questions.\n\nMemories (id, date, text):\n${shown.map((memory) => `${memory.id} (${memory.date}) ${memory.text}`).join('\n')}`;
  const { value, usage } = await model.structured({ name: 'questions', schema: ModelQuestionsSchema, system: WRITE, user });
  const questions = value.questions
    .filter((item) => ids.has(item.memory_id) && item.question.trim() && item.expected.trim())
    .slice(0, most)
    .map((item) => ({ question: item.question.trim(), expected: item.expected.trim(), memoryId: item.memory_id }));
  return { questions, usage };
}

/** The model's marks of answers, in the items' order; an item it leaves out is wrong. */
export async function markWithModel(
  model: Model,
  items: Pick<HealthItem, 'question' | 'expected' | 'answer'>[],
): Promise<{ marks: HealthItem['mark'][]; usage: ModelUsage }> {
  const user = items
    .map((item, index) => `[${index}] Question: ${item.question}\nExpected: ${item.expected}\nAnswer: ${item.answer ?? '(no answer)'}`)
    .join('\n\n');
  const { value, usage } = await model.structured({ name: 'marks', schema: ModelMarksSchema, system: MARK, user });
  const marks = items.map((): HealthItem['mark'] => 'wrong');
  for (const { index, mark } of value.marks) if (index >= 0 && index < marks.length) marks[index] = mark;
  return { marks, usage };
}
