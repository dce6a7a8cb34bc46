import { readFileSync } from 'node:fs';
import { learnFromMessages, readMessages } from './src/learn/index.js';
const samples = JSON.parse(readFileSync('../../../shared/eval/locomo-dev.json', 'utf8'));
const [conv, sess, idx] = process.argv.slice(2);
const s = samples.find((x: any) => x.sample_id === conv);
const turns = s.conversation[`session_${sess}`];
const msgs = readMessages(turns.map((t: any) => ({ role: 'user', name: t.speaker, content: t.blip_caption ? `${t.text} [shares: ${t.blip_caption}]` : t.text, at: '2023-06-27T10:00:00Z' })));
const facts = learnFromMessages(msgs, { writtenAt: new Date('2023-06-27T10:00:00Z') });
for (const i of idx.split(',').map(Number)) {
  console.log('TURN', i, turns[i].dia_id, turns[i].text);
  for (const f of facts.filter((f) => f.sentence.messageIndex === i)) console.log('  FACT', f.text, '| ctx:', (f.context ?? '').slice(0, 80).replace(/\n/g, ' / '), '| before:', (f.before ?? '').slice(0, 60));
}
