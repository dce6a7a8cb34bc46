import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { loadConfig } from '../../packages/server/src/config.js';
import { startServer } from '../../packages/server/src/server.js';
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
const db=server.store.db;
const lex=['caroline','support','group','lgbtq','go','week','attend','meet','help','time','day','feel'];
const any=lex.map(l=>`'${l}'`).join(' | ');
const lex2=[...lex,'pigment','painter','assemblage','aggroup','grouping','hebdomad','calendar_week','attendant','see','encounter','assist','aid','clip','meter','sidereal'];
const any2=lex2.map(l=>`'${l}'`).join(' | ');
const variants: Record<string, any> = {
  full: sql`select m.id, m.kind, m.about, extract(epoch from m.created_at)::float8*1000 as c, m.text ~* '\\m(?:may|june)\\M' as d, m.tsv::text as t, (select count(*)::int from memories c where c.space=${space} and c.status='current') n from memories m, to_tsquery('simple', ${any2}) q where m.space=${space} and m.status='current' and m.tsv @@ q`,
  noregex: sql`select m.id, m.kind, m.about, extract(epoch from m.created_at)::float8*1000 as c, m.tsv::text as t, (select count(*)::int from memories c where c.space=${space} and c.status='current') n from memories m, to_tsquery('simple', ${any2}) q where m.space=${space} and m.status='current' and m.tsv @@ q`,
  nototal: sql`select m.id, m.kind, m.about, extract(epoch from m.created_at)::float8*1000 as c, m.tsv::text as t from memories m, to_tsquery('simple', ${any2}) q where m.space=${space} and m.status='current' and m.tsv @@ q`,
  idonly: sql`select m.id from memories m, to_tsquery('simple', ${any2}) q where m.space=${space} and m.status='current' and m.tsv @@ q`,
  total: sql`select count(*)::int from memories c where c.space=${space} and c.status='current'`,
};
for (const [name, query] of Object.entries(variants)) { await query.execute(db); const t=performance.now(); let n=0; for(let i=0;i<20;i++) n=(await query.execute(db)).rows.length; console.log(name, n, ((performance.now()-t)/20).toFixed(2),'ms'); }
await server.close();
