/**
 * A process that sends one WhatsApp outbox row and prints "ok" when it is stored (the kill test
 * SIGKILLs it while Meta holds the send request: between the HTTP call and our commit).
 * Usage: node --import tsx whatsapp-sender-child.ts APP_URL API_URL TOKEN PHONE_ID SAIDA
 */
import pg from 'pg';
import { createWhatsAppClient } from '../../src-main/whatsapp/client';
import { sendOutboxRow } from '../../src-main/whatsapp/sender';

const [url, apiUrl, token, phoneNumberId, saida] = process.argv.slice(2);
if (!url || !apiUrl || !token || !phoneNumberId || !saida) throw new Error('argumentos?');
const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'balcao-wa-filho' });
const r = await sendOutboxRow(
  {
    pool,
    client: createWhatsAppClient({ token, phoneNumberId, apiUrl }, { timeoutMs: 600_000 }),
    leaseMs: 60_000,
    graceMs: 0,
    backoffMs: () => 0,
    schedule: async () => undefined,
  },
  Number(saida),
);
process.stdout.write(`ok ${r}\n`);
await pool.end();
