/**
 * The learner alone: turns a second on one core, over every message of LoCoMo's dev
 * conversations (../shared/eval/locomo-dev.json, or LOCOMO_PATH; never copied into the repository),
 * learned as the API learns a conversation, in this process with no store.
 *
 *   npm run bench:learner                        # median of 9 passes after one warm-up pass
 *   npm run bench:learner -- --runs 15
 *   npm run bench:learner -- --with-unread-steps  # also compromise's full pipeline, passes alternating
 *
 * `--with-unread-steps` puts back the two parse steps text/nlp.ts leaves out ("typeahead",
 * "chunks") for every other pass, so that both settings meet the same machine load: on a shared
 * machine one setting's figures measured after the other's say little.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { learnFromMessages, readMessages } from '../../packages/server/src/learn/index.js';
import nlp from '../../packages/server/src/text/nlp.js';
import { sessionsOf, turnText } from '../locomo/measure.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '9' }, 'with-unread-steps': { type: 'boolean', default: false } },
});
const RUNS = Number(values.runs);

interface Sample {
  conversation: Record<string, unknown>;
}

const here = dirname(fileURLToPath(import.meta.url));
const samples = JSON.parse(
  readFileSync(process.env.LOCOMO_PATH ?? resolve(here, '../../../shared/eval/locomo-dev.json'), 'utf8'),
) as Sample[];
const sessions = samples.flatMap((sample) => sessionsOf(sample.conversation));
const turnsInAll = sessions.reduce((sum, session) => sum + session.turns.length, 0);

const world = nlp.world() as unknown as { hooks: string[] };
const trimmed = [...world.hooks];
const lexicon = trimmed.indexOf('lexicon');
/** compromise's own pipeline: typeahead before the lexicon, chunks last. */
const full = [...trimmed.slice(0, lexicon), 'typeahead', ...trimmed.slice(lexicon), 'chunks'];

/** One pass over every session; turns a second. */
function pass(steps: string[]): number {
  world.hooks = steps;
  const began = performance.now();
  for (const session of sessions) {
    const messages = readMessages(
      session.turns.map((turn) => ({ role: 'user', name: turn.speaker, content: turnText(turn), at: session.at })),
    );
    learnFromMessages(messages, { writtenAt: new Date(session.at) });
  }
  return turnsInAll / ((performance.now() - began) / 1000);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const show = (rates: number[]) =>
  `median ${Math.round(median(rates))} turns/s (${Math.round(Math.min(...rates))}–${Math.round(Math.max(...rates))} over ${rates.length} passes)`;

console.log(
  `load average at the start: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}; ${turnsInAll} turns a pass`,
);
pass(trimmed);
if (values['with-unread-steps']) pass(full);
const rates: number[] = [];
const fullRates: number[] = [];
for (let run = 0; run < RUNS; run++) {
  rates.push(pass(trimmed));
  if (values['with-unread-steps']) fullRates.push(pass(full));
}
world.hooks = trimmed;
console.log(`learner alone, as Engram runs it: ${show(rates)}`);
if (fullRates.length) console.log(`learner alone, compromise's full pipeline: ${show(fullRates)}`);
