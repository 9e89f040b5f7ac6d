/**
 * #18 through PgBouncer (transaction pooling), as a team deployment may run it: two desktops
 * (two startServices) whose DATABASE_URL points at PgBouncer with no credentials; each person
 * signs in with their own login, PgBouncer checks the password (SCRAM) and keeps one server pool
 * per login, so `session_user` on the server is still the person: the audit, the leases and the
 * lease ownership hold with calls of two people interleaved on the same PgBouncer. PgBouncer
 * looks people up with auth_query (pg_shadow lists only logins that may log in), so a deactivated
 * login is refused by PgBouncer itself and the app ends the session with a clear message.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import { clockForLocalDate } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson, deactivatePerson } from '../../src-main/people/admin';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
import { silentLogger } from '../../src-main/util/logger';
import { dados, insertExtraction } from '../support/queue-fixtures';
import { startReplicaCluster, type ReplicaCluster } from '../support/replica-cluster';

const ZONE = 'America/Sao_Paulo';
const P = `b${randomBytes(3).toString('hex')}`;
const ANA = `${P}_ana`;
const BETO = `${P}_beto`;
const SENHA = 'senha-pelo-bouncer-321';

let cluster: ReplicaCluster;
let admin: ReturnType<typeof createPool>;
const apps: Services[] = [];
const ctx: CallContext = { sessionId: 'janela-b', emit: () => undefined };
const caller =
  (app: Services) =>
  (ch: Channel, input: unknown = {}): Promise<IpcResult<unknown>> =>
    invokeChannel(app.handlers, ch, input as never, ctx, silentLogger, app.gate);

async function desktop(): Promise<Services> {
  const app = await startServices({
    settings: createMemorySettings(
      {
        // No password, and a user that is nobody's: the desktop's OS user, say.
        databaseUrl: cluster.bouncerPrimaryUrl.replace('//', `//${P}_ninguem@`),
        analyticsDatabaseUrl: cluster.bouncerPrimaryAnalyticsUrl,
        timeZone: ZONE,
      },
      {},
    ),
    dataDir: '/nao-usado',
    logger: silentLogger,
    appVersion: 'teste',
    clock: clockForLocalDate('2026-03-16', ZONE),
    env: {},
  });
  apps.push(app);
  return app;
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

describe('people through PgBouncer (transaction pooling)', () => {
  it('signs each person in; the server records each login with calls interleaved', async () => {
    const a = caller(await desktop());
    const b = caller(await desktop());
    expect(await a('session/state')).toMatchObject({ ok: true, data: { entrou: false } });
    const wrong = await a('session/signIn', { usuario: ANA, senha: 'errada', lembrar: false });
    expect(wrong).toEqual({
      ok: false,
      error: { code: 'acesso_negado', message: 'Usuário ou senha incorretos.' },
    });
    expect(await a('session/signIn', { usuario: ANA, senha: SENHA, lembrar: false })).toMatchObject(
      { ok: true, data: { entrou: true, login: ANA } },
    );
    expect(
      await b('session/signIn', { usuario: BETO, senha: SENHA, lembrar: false }),
    ).toMatchObject({ ok: true, data: { entrou: true, login: BETO } });
    const x = await insertExtraction(admin, { merchantId: 1 });
    const y = await insertExtraction(admin, { merchantId: 1 });
    const ca = (await a('review/claim', { id: x })) as IpcResult<{ token: string }>;
    const cb = (await b('review/claim', { id: y })) as IpcResult<{ token: string }>;
    if (!ca.ok || !cb.ok) throw new Error('claim falhou');
    for (let i = 0; i < 6; i++) {
      const nome = `Cliente ${i}`;
      const [ra, rb] = await Promise.all([
        a('review/save', { id: x, token: ca.data.token, dados: dados({ cliente_nome: nome }) }),
        b('review/save', { id: y, token: cb.data.token, dados: dados({ cliente_nome: nome }) }),
      ]);
      expect(ra.ok && rb.ok).toBe(true);
    }
    const audit = await admin.query<{ extracao_id: number; login: string; n: number }>(
      `SELECT extracao_id, login, count(*)::int AS n FROM auditoria
        WHERE extracao_id = ANY($1) GROUP BY 1, 2 ORDER BY 1`,
      [[x, y]],
    );
    expect(audit.rows).toEqual([
      { extracao_id: x, login: ANA, n: 7 },
      { extracao_id: y, login: BETO, n: 7 },
    ]);
    // Beto holding Ana's token still cannot act on her item: the lease is her login's.
    const stolen = await b('review/save', { id: x, token: ca.data.token, dados: dados() });
    expect(stolen.ok ? '' : stolen.error.message).toContain(`pertence a ${ANA}`);
  });

  it('a deactivated login is cut off on its next call, through PgBouncer too', async () => {
    const c = caller(await desktop());
    await c('session/signIn', { usuario: BETO, senha: SENHA, lembrar: false });
    expect((await c('review/list', {})).ok).toBe(true);
    await deactivatePerson(admin, BETO);
    // PgBouncer may first answer "server login has been failing" (a pooler cannot tell why) until
    // server_login_retry (1 s here) passes; then the server's refusal reaches the app.
    let r = await c('review/list', {});
    for (let i = 0; i < 20 && !(!r.ok && r.error.code === 'acesso_negado'); i++) {
      await new Promise((ok) => setTimeout(ok, 300));
      r = await c('review/list', {});
    }
    expect(r).toMatchObject({ ok: false, error: { code: 'acesso_negado' } });
    expect(r.ok ? '' : r.error.message).toContain('desativado');
    expect(await c('session/state')).toMatchObject({ ok: true, data: { entrou: false } });
  });
});
