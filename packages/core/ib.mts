import { inspectContents, contentKey } from '@galley/core';
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
function pngChunk(type: string, data: Buffer) { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const crc = Buffer.alloc(4); return Buffer.concat([len, Buffer.from(type), data, crc]); }
function png(seed: number) { const h = Buffer.alloc(13); h.writeUInt32BE(300,0); h.writeUInt32BE(250,4); h[8]=8; h[9]=2; const row = Buffer.alloc(1+900, seed); row[0]=0;
 return Buffer.concat([Buffer.from([0x89,0x50,0x4e,0x47,0x0d,0x0a,0x1a,0x0a]), pngChunk('IHDR',h), pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({length:250},()=>row)))), pngChunk('IEND', Buffer.alloc(0))]); }
const count = Number(process.argv[2] ?? 2000);
const files = new Map<string, Uint8Array>();
files.set('production.json', Buffer.from(JSON.stringify({ medium: { id: 'banner', version: 1 }, media_contract: { version: '1.0' }, format: 1, title: 'T' })));
for (let i = 0; files.size < count; i++) {
  if (i % 2) files.set(`canvas/s${i}.css`, Buffer.from(`.c${i}{color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`));
  else files.set(`canvas/i${i}.png`, png(i % 256));
}
const contents: Record<string,string> = {};
for (const [p,b] of files) contents[p] = sha(b);
const base = { kind: 'production' as const, files, schemas: {}, contents, now: '2026-01-01T00:00:00Z' };
const first = inspectContents(base);
console.log(first.inspection.verdict, JSON.stringify(first.inspection).length);
const known = first.learned;
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  for (let k = 0; k < 20; k++) inspectContents({ ...base, known });
  console.log(((performance.now() - t) / 20).toFixed(2), 'ms');
}
import { createAssetContext } from './src/inspect/asset.js';
import { inspectNames } from './src/inspect/standards/names.js';
import { inspectFormats } from './src/inspect/standards/formats.js';
import { inspectCanvas } from './src/inspect/standards/canvas.js';
import { inspectSchema } from './src/inspect/standards/schema.js';
for (let r=0;r<6;r++){ const t:number[]=[0,0,0,0,0,0];
 for(let k=0;k<20;k++){ let a=performance.now(); const ctx=createAssetContext({...base, known}); let b=performance.now(); t[0]+=b-a;
  a=b; inspectNames(ctx); b=performance.now(); t[1]+=b-a; a=b; inspectFormats(ctx); b=performance.now(); t[2]+=b-a;
  a=b; inspectCanvas(ctx); b=performance.now(); t[3]+=b-a; a=b; inspectSchema(ctx); b=performance.now(); t[4]+=b-a; }
 console.log('ctx names formats canvas schema', t.slice(0,5).map(x=>(x/20).toFixed(2)).join(' '));}
