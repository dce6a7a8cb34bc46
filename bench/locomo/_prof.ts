import { readFileSync } from 'node:fs';
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';
import { recall } from '../../packages/server/src/recall/search.js';
import { searchMemories, loadMemories, lexemesOf } from '../../packages/server/src/store/memory-repository.js';
import { parseSessionDate } from './measure.js';
const data = JSON.parse(readFileSync('/work/shared/eval/locomo-dev.json','utf8'));
const key='egk_bench_locomo_0123456789abcdef';
const server = await startServer(loadConfig({ENGRAM_PORT:'0',ENGRAM_DATA_DIR:'memory://',ENGRAM_BOOTSTRAP_KEY:key,ENGRAM_ACCOUNT_RPM:'1000000',ENGRAM_POLL_MS:'20'}),{announceKey:()=>{}});
const s=data[0]; const space='p';
const call=async(m:string,p:string,b?:any)=>{const r=await fetch(server.url+p,{method:m,headers:{Authorization:'Bearer '+key,'X-Memory-Space':space,'Content-Type':'application/json'},body:b?JSON.stringify(b):undefined});return r.json() as any};
const ids:string[]=[];
for (const k of Object.keys(s.conversation)) { const m=/^session_(\d+)$/.exec(k); if(!m) continue; const at=parseSessionDate(s.conversation[k+'_date_time']).toISOString();
  const r=await call('POST','/v1/memories',{messages:s.conversation[k].map((t:any)=>({role:'user',name:t.speaker,content:t.text,at}))}); ids.push(r.source.id);}
for (const id of ids) await call('GET',`/v1/sources/${id}?wait=60`);
const db=server.store.db; const acct=(await (await import('kysely')).sql<any>`select account_id from memories limit 1`.execute(db)).rows[0].account_id;
const scope={accountId:acct,space};
const qs=s.qa.map((q:any)=>q.question);
for (const label of ["recall12"]) { (globalThis as any).T=[0,0,0,0,0]; const t=performance.now(); for (const q of qs) await recall(db,scope,q,{limit:12,kind:"all"}); console.log(label,((performance.now()-t)/qs.length).toFixed(1),"ms", (globalThis as any).T.map((x:number)=>(x/qs.length).toFixed(1))); }
let tl=0,ts=0,tload=0,nh=0;
for (const q of qs) { const words=q.toLowerCase().match(/[a-z]+/g); let t=performance.now(); const lx=(await lexemesOf(db,words)).flat(); tl+=performance.now()-t; if(!lx.length) continue; t=performance.now(); const r=await searchMemories(db,scope,{lexemes:[...new Set(lx)],kind:'all'}); ts+=performance.now()-t; nh+=r.hits.length; t=performance.now(); await loadMemories(db,scope,r.hits.slice(0,200).map(h=>h.id)); tload+=performance.now()-t;}
console.log('lex',tl/qs.length,'search',ts/qs.length,'hits',nh/qs.length,'load200',tload/qs.length);
await server.close();
