import { readFileSync } from 'node:fs';
import { learnFromMessages, readMessages } from '../../packages/server/src/learn/index.js';
import { parseSessionDate, normaliseEvidence } from './measure.js';
const data = JSON.parse(readFileSync('/work/shared/eval/locomo-dev.json','utf8'));
let ev=0, covered=0; const missing: string[]=[];
for (const s of data.slice(0,2)) {
  const byId = new Map<string,{text:string,facts:string[]}>();
  for (const key of Object.keys(s.conversation)) {
    const m=/^session_(\d+)$/.exec(key); if(!m) continue;
    const turns=s.conversation[key]; const at=parseSessionDate(s.conversation[key+'_date_time']).toISOString();
    const msgs = readMessages(turns.map((t:any)=>({role:'user',name:t.speaker,content:t.blip_caption?`${t.text} [shares: ${t.blip_caption}]`:t.text,at})));
    const facts = learnFromMessages(msgs,{writtenAt:new Date(at)});
    turns.forEach((t:any,i:number)=>byId.set(t.dia_id,{text:t.speaker+': '+t.text,facts:facts.filter(f=>f.sentence.messageIndex===i).map(f=>f.text)}));
  }
  for (const q of s.qa) for (const id of normaliseEvidence(q.evidence)) { ev++; const t=byId.get(id); if(t&&t.facts.length) covered++; else missing.push(id+' '+(t?.text??'?')); }
}
console.log(ev, covered, (covered/ev*100).toFixed(1));
console.log(missing.slice(0,25).join('\n'));
