/**
 * What the optional model costs, in tokens per 1,000 conversation turns, measured on the
 * prompts Engram really builds: every LoCoMo dev session goes through learnWithModel with a
 * counting model, whose input tokens are the real prompts' (gpt-tokenizer) and whose output
 * is estimated as the offline learner's facts written in the model's answer schema.
 *
 *   npm run bench:model-cost [-- --input-usd 0.15 --output-usd 0.60]
 *
 * Reads ../shared/eval/locomo-dev.json (or LOCOMO_PATH); nothing is sent anywhere.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { factsOf } from '../../packages/server/src/learn/facts-of.js';
import { learnWithModel } from '../../packages/server/src/model/learn-with-model.js';
import type { Model } from '../../packages/server/src/model/model-client.js';
import { countTextTokens } from '../../packages/server/src/text/token-count.js';
import { parseSessionDate } from '../locomo/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const data = JSON.parse(readFileSync(process.env.LOCOMO_PATH ?? resolve(here, '../../../shared/eval/locomo-dev.json'), 'utf8')) as {
  conversation: Record<string, unknown>;
}[];
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const inputUsd = argument('input-usd', 0.15);
const outputUsd = argument('output-usd', 0.6);

let input = 0;
let calls = 0;
const counting: Model = {
  name: 'counting',
  async structured(request) {
    calls++;
    input +=
      countTextTokens(request.system) + countTextTokens(request.user) + countTextTokens(JSON.stringify(z.toJSONSchema(request.schema)));
    return { value: request.schema.parse({ facts: [] }), usage: { input: 0, output: 0 } };
  },
};

let turns = 0;
let output = 0;
let facts = 0;
for (const sample of data) {
  for (const [key, value] of Object.entries(sample.conversation)) {
    const match = /^session_(\d+)$/u.exec(key);
    const date = sample.conversation[`${key}_date_time`];
    if (!match || !Array.isArray(value) || typeof date !== 'string') continue;
    const at = parseSessionDate(date).toISOString();
    const messages = (value as { speaker: string; text: string }[]).map((turn) => ({
      role: 'user',
      name: turn.speaker,
      content: turn.text,
      at,
    }));
    turns += messages.length;
    const source = { kind: 'conversation' as const, body: null, messages, written_at: new Date(at) };
    // Nearest memories: five of about 14 words each, as recall returns them.
    await learnWithModel(counting, source, {
      offline: factsOf,
      nearest: async () => Array.from({ length: 5 }, (_, id) => ({ id, text: 'A'.repeat(80), date: '2026-01-01' })),
    });
    const offline = await factsOf(source);
    facts += offline.facts.length;
    output += countTextTokens(
      JSON.stringify({
        facts: offline.facts.map((fact) => ({
          text: fact.text,
          kind: fact.kind,
          about: fact.about,
          message: fact.sentence.messageIndex,
          quote: fact.sentence.text,
          updates: null,
        })),
      }),
    );
  }
}
const per1000 = (value: number) => Math.round((value * 1000) / turns);
const usd = (per1000(input) * inputUsd + per1000(output) * outputUsd) / 1e6;
console.log(`${turns} turns in ${calls} model calls (${(turns / calls).toFixed(1)} turns a call), ${facts} facts`);
console.log(
  `per 1,000 turns: ${per1000(calls)} calls, ${per1000(input).toLocaleString('en')} input tokens (measured prompts), ${per1000(output).toLocaleString('en')} output tokens (estimated)`,
);
console.log(`at $${inputUsd}/M input and $${outputUsd}/M output: $${usd.toFixed(3)} per 1,000 turns`);
