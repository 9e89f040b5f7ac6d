/**
 * #18 part 2: "Standard libpq sources work too (PGUSER, PGPASSWORD, .pgpass)". Real logins with
 * SCRAM passwords on the test server (password authentication), through the app's bootstrap
 * (startServices) and the one IPC wrapper: DATABASE_URL carries no password (and, for PGUSER, no
 * user); the password comes from a .pgpass file (PGPASSFILE) or PGPASSWORD. The app opens
 * already signed in as that person, with that person's role, and the database records that login.
 * A wrong .pgpass line falls back to the sign-in screen.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, IpcResult } from '@shared/contract';
import type { SessionView } from '@shared/contract/session';
import { clockForLocalDate } from '../../src-main/clock';
import { urlForRole } from '../../src-main/db/urls';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext } from '../../src-main/ipc/types';
import { createPerson } from '../../src-main/people/admin';
import { createMemorySettings } from '../../src-main/settings/memory';
import { startServices, type Services } from '../../src-main/start-services';
import { silentLogger } from '../../src-main/util/logger';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { insertExtraction } from '../support/queue-fixtures';

const ZONE = 'America/Sao_Paulo';
const P = `l${randomBytes(3).toString('hex')}`;
const SUP = `${P}_sueli`;
const FIN = `${P}_fabia`;
const SENHA = 'senha:com\\dois-pontos'; // .pgpass escapes ':' and '\'
const ENV_KEYS = ['PGPASSFILE', 'PGPASSWORD', 'PGUSER'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

let db: TestDatabase;
let dir: string;
let app: Services | undefined;
const ctx: CallContext = { sessionId: 'janela-l', emit: () => undefined };
const call = (ch: Channel, input: unknown = {}): Promise<IpcResult<unknown>> =>
  invokeChannel(app!.handlers, ch, input as never, ctx, silentLogger, app!.gate);

function start(databaseUrl: string): Promise<Services> {
  return startServices({
    settings: createMemorySettings(
      { databaseUrl, analyticsDatabaseUrl: db.analyticsUrl, timeZone: ZONE },
      {},
    ),
    dataDir: '/nao-usado',
    logger: silentLogger,
    appVersion: 'teste',
    clock: clockForLocalDate('2026-03-16', ZONE),
    env: {},
  });
}

/** host:port:database:user:password, with ':' and '\' escaped as libpq reads them. */
function pgpass(user: string, password: string): string {
  const u = new URL(db.adminUrl);
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
  const file = join(dir, `pgpass-${randomBytes(3).toString('hex')}`);
  writeFileSync(
    file,
    `# Balcão\n${u.hostname}:${u.port}:${u.pathname.slice(1)}:${esc(user)}:${esc(password)}\n`,
  );
  chmodSync(file, 0o600); // libpq (and pg) ignore a group/world-readable file
  return file;
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'balcao-pgpass-'));
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (1, 'Padaria São Jorge')`);
  await createPerson(db.admin, { nome: SUP, papel: 'suporte', senha: SENHA });
  await createPerson(db.admin, { nome: FIN, papel: 'financeiro', senha: SENHA });
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const r of [SUP, FIN]) await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  await db.drop();
});

describe('libpq sources (#18 part 2)', () => {
  it('.pgpass (PGPASSFILE): DATABASE_URL without a password opens signed in as that person', async () => {
    delete process.env.PGPASSWORD;
    process.env.PGPASSFILE = pgpass(SUP, SENHA);
    const url = urlForRole(db.adminUrl, SUP);
    expect(new URL(url).password).toBe('');
    app = await start(url);
    const v = await call('session/state');
    expect(v).toMatchObject({
      ok: true,
      data: { modo: 'pessoal', entrou: true, login: SUP, papeis: ['suporte'], podeSair: true },
    });
    // The role decides, and the database records this login.
    expect(await call('sales/session')).toMatchObject({
      ok: false,
      error: { code: 'acesso_negado' },
    });
    const id = await insertExtraction(db.admin, { merchantId: 1 });
    expect(await call('review/claim', { id })).toMatchObject({ ok: true });
    const audit = await db.admin.query(
      'SELECT login, operador FROM auditoria WHERE extracao_id = $1',
      [id],
    );
    expect(audit.rows).toEqual([{ login: SUP, operador: SUP }]);
  });

  it('a wrong password in .pgpass: the sign-in screen, and signing in works', async () => {
    delete process.env.PGPASSWORD;
    process.env.PGPASSFILE = pgpass(SUP, 'senha-antiga');
    app = await start(urlForRole(db.adminUrl, SUP));
    expect((await call('session/state')) as IpcResult<SessionView>).toMatchObject({
      ok: true,
      data: { modo: 'pessoal', entrou: false, login: null },
    });
    const r = await call('session/signIn', { usuario: SUP, senha: SENHA, lembrar: false });
    expect(r).toMatchObject({ ok: true, data: { entrou: true, login: SUP } });
  });

  it('PGUSER + PGPASSWORD: DATABASE_URL with no user and no password', async () => {
    delete process.env.PGPASSFILE;
    process.env.PGUSER = FIN;
    process.env.PGPASSWORD = SENHA;
    const u = new URL(db.adminUrl);
    u.username = '';
    u.password = '';
    app = await start(u.toString());
    expect(await call('session/state')).toMatchObject({
      ok: true,
      data: { modo: 'pessoal', entrou: true, login: FIN, papeis: ['financeiro'] },
    });
    expect(await call('review/list', {})).toMatchObject({
      ok: false,
      error: { message: 'Seu papel não inclui a fila de revisão (suporte ou supervisor).' },
    });
    expect(await call('app/info')).toMatchObject({ ok: true, data: { operator: FIN } });
  });
});
