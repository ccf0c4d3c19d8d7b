import fs from 'node:fs';
import { openDatabase } from './src/server/db/client.ts';
const dir = '/tmp/data-exp2';
fs.rmSync(dir, { recursive: true, force: true });
const a = await openDatabase({ kind: 'pglite', dataDir: dir });
const b = await openDatabase({ kind: 'pglite', dataDir: dir }); // same process: shared
await b.close();
console.log(fs.readdirSync(dir).filter(n => n.startsWith('.')), fs.readFileSync(dir + '/.kirana.lock.json', 'utf8'));
await a.close();
console.log('after close', fs.readdirSync(dir).filter(n => n.startsWith('.')));
const modes = new Set<string>(); for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) modes.add((fs.statSync(`${dir}/${f}`).mode & 0o777).toString(8));
console.log(modes, (fs.statSync(dir).mode & 0o777).toString(8));
fs.writeFileSync(dir + '/global/pg_control', Buffer.alloc(8192));
try { await openDatabase({ kind: 'pglite', dataDir: dir }); } catch (e) { console.log('ERR', (e as Error).message); }
fs.rmSync(dir + '/PG_VERSION');
try { await openDatabase({ kind: 'pglite', dataDir: dir }); } catch (e) { console.log('ERR', (e as Error).message); }
