/**
 * #39.1: a team's desktop behind PgBouncer (transaction pooling) gets the live queue with no
 * connection of its own to the primary. Two desktops (startServices, as main runs it, with a
 * `broadcast`) sign in through PgBouncer; an item written by a worker and a claim made by one
 * desktop reach the other's `review/changed`, and the primary never sees a LISTEN session
 * (`balcao-fila-ao-vivo`) — the live queue reads the change log through the person's pool.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import type { QueueChange } from '../../src-main/intake/live';
import { clockForLocalDate } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
import { silentLogger } from '../../src-main/util/logger';
import { insertExtraction } from '../support/queue-fixtures';
import { startReplicaCluster, type ReplicaCluster } from '../support/replica-cluster';

const ZONE = 'America/Sao_Paulo';
const P = `v${randomBytes(3).toString('hex')}`;
const ANA = `${P}_ana`;
const BETO = `${P}_beto`;
const SENHA = 'senha-ao-vivo-4321';

let cluster: ReplicaCluster;
let admin: ReturnType<typeof createPool>;
const apps: Services[] = [];
const ctx: CallContext = { sessionId: 'janela-v', emit: () => undefined };

async function desktop(heard: QueueChange[]) {
  const app = await startServices({
    settings: createMemorySettings(
      {
        databaseUrl: cluster.bouncerPrimaryUrl.replace('//', `//${P}_ninguem@`),
        analyticsDatabaseUrl: cluster.bouncerPrimaryAnalyticsUrl,
        // Configured for the workers: a desktop where people sign in does not use it.
        directDatabaseUrl: cluster.primaryAppUrl,
        timeZone: ZONE,
      },
      {},
    ),
    dataDir: '/nao-usado',
    logger: silentLogger,
    appVersion: 'teste',
    clock: clockForLocalDate('2026-03-16', ZONE),
    env: {},
    broadcast: (event, payload) => {
      if (event === 'review/changed') heard.push(payload as QueueChange);
    },
  });
  apps.push(app);
  return (ch: Channel, input: unknown = {}): Promise<IpcResult<unknown>> =>
    invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate);
}

beforeAll(async () => {
  cluster = await startReplicaCluster({ authQuery: true });
  admin = createPool(cluster.primaryAdminUrl, { max: 2 });
  await admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Padaria São Jorge')`);
  for (const nome of [ANA, BETO])
    await createPerson(admin, { nome, papel: 'suporte', senha: SENHA });
}, 120_000);
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => undefined);
  await admin?.end();
  await cluster?.stop();
});

describe('the live queue of desktops behind PgBouncer', () => {
  it('reaches every signed-in desktop through its pooled login; no LISTEN session on the primary', async () => {
    const heardA: QueueChange[] = [];
    const heardB: QueueChange[] = [];
    const a = await desktop(heardA);
    const b = await desktop(heardB);
    expect(await a('session/signIn', { usuario: ANA, senha: SENHA, lembrar: false })).toMatchObject(
      { ok: true },
    );
    expect(
      await b('session/signIn', { usuario: BETO, senha: SENHA, lembrar: false }),
    ).toMatchObject({ ok: true });
    // A worker stores an item: both desktops hear of it.
    const id = await insertExtraction(admin, { merchantId: 1 });
    await vi.waitFor(
      () => {
        expect(heardA.some((c) => c.ids.includes(id))).toBe(true);
        expect(heardB.some((c) => c.ids.includes(id))).toBe(true);
      },
      { timeout: 15_000 },
    );
    // Ana claims it: Beto's desktop hears of it.
    const before = heardB.filter((c) => c.ids.includes(id)).length;
    expect(await a('review/claim', { id })).toMatchObject({ ok: true, data: { claimed: true } });
    await vi.waitFor(
      () => expect(heardB.filter((c) => c.ids.includes(id)).length).toBeGreaterThan(before),
      { timeout: 15_000 },
    );
    const sessions = await admin.query<{ app: string; usuario: string }>(
      `SELECT application_name AS app, usename AS usuario FROM pg_stat_activity
        WHERE datname = current_database() AND usename = ANY($1)`,
      [[ANA, BETO]],
    );
    // The people's server connections are PgBouncer's (balcao-pessoa); none listens.
    expect(sessions.rows.length).toBeGreaterThan(0);
    expect(sessions.rows.filter((r) => r.app === 'balcao-fila-ao-vivo')).toEqual([]);
  });
});
