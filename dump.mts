import { readFileSync, readdirSync } from 'node:fs';
import { learnFromMessages, readMessages } from './packages/server/src/learn/index.js';
import { parseSessionDate } from './bench/locomo/measure.js';
const out: string[] = [];
const data = JSON.parse(readFileSync('../shared/eval/locomo-dev.json', 'utf8'));
const samples = Array.isArray(data) ? data : data.conversations;
for (const sample of samples) {
  for (const key of Object.keys(sample.conversation)) {
    if (!/^session_\d+$/.test(key)) continue;
    const turns = sample.conversation[key];
    const at = parseSessionDate(sample.conversation[`${key}_date_time`]).toISOString();
    const msgs = readMessages(turns.map((t: any) => ({ role: 'user', name: t.speaker, content: t.blip_caption ? `${t.text} [shares: ${t.blip_caption}]` : t.text, at })));
    for (const f of learnFromMessages(msgs, { writtenAt: new Date(at) })) out.push(`L ${f.kind} ${f.text}`);
  }
}
for (const file of readdirSync('bench/assistant-chats/data')) {
  const p = JSON.parse(readFileSync(`bench/assistant-chats/data/${file}`, 'utf8'));
  for (const s of p.sessions) {
    for (let i = 0; i < s.messages.length; i += 2) {
      const msgs = [...(i > 0 ? [{ role: 'assistant', content: s.messages[i - 1].content.split(/(?<=[.!?])\s+/).slice(-1)[0] }] : []), { role: 'user', content: s.messages[i].content, at: s.date }];
      for (const f of learnFromMessages(readMessages(msgs as never), { writtenAt: new Date(s.date) })) out.push(`C ${f.kind} ${f.text}`);
    }
  }
}
console.log(out.sort().join('\n'));
