import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import { CallLimiter } from './call-limiter.js';
import type { ModelUsage } from './model-error.js';
import { ModelError } from './model-error.js';

/** The optional model's settings (ENGRAM_LLM_*; see docs/model.md). */
export interface ModelConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Time allowed for one call, in milliseconds. */
  timeoutMs: number;
  /** Retries of a call that met a 429, a 5xx or a dropped connection. */
  maxRetries: number;
  /** Calls in flight at once from this process. */
  concurrency: number;
  /** Calls started in any minute from this process. */
  perMinute: number;
}

export type { ModelFailure, ModelUsage } from './model-error.js';
export { ModelError } from './model-error.js';

/** One structured-output request: a system and a user message, and the zod schema of the answer. */
export interface StructuredRequest<Schema extends z.ZodType> {
  /** The schema's name as the model sees it. */
  name: string;
  schema: Schema;
  system: string;
  user: string;
}

/** The optional OpenAI-compatible model, bounded in concurrency and rate. */
export interface Model {
  readonly name: string;
  /** One call whose answer must match `schema`; throws ModelError when it does not. */
  structured<Schema extends z.ZodType>(request: StructuredRequest<Schema>): Promise<{ value: z.infer<Schema>; usage: ModelUsage }>;
}

/** Opens the model that ENGRAM_LLM_* name: any server speaking OpenAI's chat completions API. */
export function createModel(config: ModelConfig): Model {
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers (vLLM, Ollama, llama.cpp) take any key; the package wants one.
    apiKey: config.apiKey ?? 'none',
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
  });
  const limiter = new CallLimiter(config.concurrency, config.perMinute);
  return {
    name: config.model,
    structured: (request) => limiter.run(() => callStructured(client, config.model, request)),
  };
}

async function callStructured<Schema extends z.ZodType>(
  client: OpenAI,
  model: string,
  request: StructuredRequest<Schema>,
): Promise<{ value: z.infer<Schema>; usage: ModelUsage }> {
  let completion: Awaited<ReturnType<OpenAI['chat']['completions']['create']>>;
  try {
    completion = await client.chat.completions.create({
      model,
      temperature: 0,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
      response_format: zodResponseFormat(request.schema, request.name),
    });
  } catch (error) {
    throw asModelError(error);
  }
  const usage = { input: completion.usage?.prompt_tokens ?? 0, output: completion.usage?.completion_tokens ?? 0 };
  const message = completion.choices[0]?.message;
  if (!message) throw new ModelError('malformed', 'The model answered with no message', usage);
  if (message.refusal) throw new ModelError('refused', `The model refused: ${message.refusal.slice(0, 200)}`, usage);
  let data: unknown;
  try {
    data = JSON.parse(message.content ?? '');
  } catch {
    throw new ModelError('malformed', "The model's answer is not JSON", usage);
  }
  const parsed = request.schema.safeParse(data);
  if (!parsed.success) throw new ModelError('malformed', `The model's answer does not match ${request.name}`, usage);
  return { value: parsed.data, usage };
}

function asModelError(error: unknown): ModelError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new ModelError('timeout', 'The model did not answer in time');
  if (error instanceof OpenAI.RateLimitError) return new ModelError('rate_limited', 'The model server is over its rate limit');
  if (error instanceof OpenAI.APIError) {
    return new ModelError('failed', `The model server answered ${error.status ?? 'with an error'}`);
  }
  return new ModelError('failed', `The model could not be reached: ${(error as Error).message}`);
}
