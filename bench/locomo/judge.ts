/**
 * LoCoMo's LLM-judge score (the "J" of published memory benchmarks): a model reads the
 * question, the gold answer and the generated answer and says CORRECT or WRONG, generous on
 * wording and on dates written differently. Needs a model: ENGRAM_JUDGE_BASE_URL /
 * ENGRAM_JUDGE_API_KEY / ENGRAM_JUDGE_MODEL, else the ENGRAM_LLM_* ones.
 */
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';

const VerdictSchema = z.object({ reasoning: z.string(), label: z.enum(['CORRECT', 'WRONG']) });

const SYSTEM = `You label answers to questions about a long conversation as CORRECT or WRONG.
You get the question, the gold answer and a generated answer. Be generous: the generated answer is CORRECT
when it touches the same topic and holds the gold answer's content, even if longer or worded differently;
a date or time period written in another format but meaning the same is CORRECT. Otherwise it is WRONG.`;

/** A judge bound to one model; `judge()` answers true for CORRECT. */
export function createJudge(env: NodeJS.ProcessEnv = process.env) {
  const baseURL = env.ENGRAM_JUDGE_BASE_URL ?? env.ENGRAM_LLM_BASE_URL;
  if (!baseURL) throw new Error('--judge needs a model: set ENGRAM_JUDGE_BASE_URL (or ENGRAM_LLM_BASE_URL), its key and model');
  const client = new OpenAI({
    baseURL,
    apiKey: env.ENGRAM_JUDGE_API_KEY ?? env.ENGRAM_LLM_API_KEY ?? 'none',
    timeout: 60_000,
    maxRetries: 3,
  });
  const model = env.ENGRAM_JUDGE_MODEL ?? env.ENGRAM_LLM_MODEL ?? 'gpt-4o-mini';
  return async function judge(question: string, gold: string, generated: string | null): Promise<boolean> {
    if (!generated) return false;
    const completion = await client.chat.completions.create({
      model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Question: ${question}\nGold answer: ${gold}\nGenerated answer: ${generated}` },
      ],
      response_format: zodResponseFormat(VerdictSchema, 'verdict'),
    });
    const parsed = VerdictSchema.safeParse(JSON.parse(completion.choices[0]?.message.content ?? '{}'));
    return parsed.success && parsed.data.label === 'CORRECT';
  };
}
