/**
 * A process that runs one fold of the sales rollups and prints "ok" when it ends (the kill test
 * SIGKILLs it while the fold is inside its transaction). Usage: node --import tsx fold-child.ts URL
 */
import pg from 'pg';
import { consolidarVendas } from '../../src-main/sales/consolidate';

const url = process.argv[2];
if (!url) throw new Error('URL?');
const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'balcao-fold-filho' });
const r = await consolidarVendas(pool, { lockTimeoutMs: 120_000 });
process.stdout.write(`ok ${JSON.stringify(r)}\n`);
await pool.end();
