import type { Channel } from '@shared/contract';
import { CHANNEL_ACCESS } from '@shared/contract/permissions';
import type { SessionView } from '@shared/contract/session';
import { AppError } from '@shared/errors';
import {
  NEGADO,
  PAPEIS,
  PERMISSOES,
  permissoesDe,
  type Papel,
  type Permissao,
} from '@shared/permissions';
import pg from 'pg';
import { createPool } from '../db/pool';
import { dbTimeoutsOf } from '../db/connect';
import { mapDbError, rawDbError } from '../db/errors';
import type { ServiceDeps } from '../deps';
import { releaseAllOf } from '../queue/lease';
import type { SettingsSource } from '../settings/types';
import type { Logger } from '../util/logger';
import { registerSecret } from '../util/redact';
import { noVault, type CredentialVault } from './vault';

/** Who a login is, as the database says (migration 0720). */
export interface Identity {
  login: string;
  papeis: Papel[];
}

/** The session channels' backend (session/state, session/signIn, session/signOut). */
export interface SessionSource {
  view(): SessionView;
  signIn(input: { usuario: string; senha: string; lembrar: boolean }): Promise<SessionView>;
  signOut(): Promise<SessionView>;
}

/** What the one IPC wrapper asks before and after every call. */
export interface AccessGate {
  /** null = allowed; otherwise the pt-BR refusal. */
  check(channel: Channel): AppError | null;
  /** After a failed call: a login cut off meanwhile ends the session with a clear message. */
  afterFailure?(e: unknown): Promise<AppError | null>;
  /** Right before the handler: re-checks with the database what `check` took from sign-in. */
  verify?(channel: Channel): Promise<AppError | null>;
}

/** Asks the database who the session's login is and which Balcão groups it belongs to. */
export async function identify(db: pg.Pool | pg.Client): Promise<Identity> {
  const r = await db.query<{ login: string; papeis: string[] }>(
    'SELECT session_user::text AS login, balcao_meus_papeis() AS papeis',
  );
  const row = r.rows[0]!;
  return { login: row.login, papeis: PAPEIS.filter((p) => row.papeis.includes(p)) };
}

/** Settings as a person's services see them: the operator label is the login, not free text. */
export function settingsFor(base: SettingsSource, login: string): SettingsSource {
  return {
    ...base,
    get: () => ({ ...base.get(), operator: login }),
    update: (patch) => ({ ...base.update(patch), operator: login }),
  };
}

interface Current<H> extends Identity {
  url: string;
  pool: pg.Pool;
  readPool: pg.Pool | undefined;
  permissoes: Permissao[];
  handlers: H;
}

/** `H`: the handlers of one person (the edge's `Handlers`; services never name that type). */
export interface AccessOptions<H> {
  modo: SessionView['modo'];
  /** Shared services (settings, clock, logger, analytics pools). */
  base: ServiceDeps;
  /** Builds the handlers of one person (createHandlers). */
  makeHandlers(deps: ServiceDeps, session: SessionSource): H;
  /** pessoal: the URL a person's login uses (DATABASE_URL with their user and password). */
  personUrl?(usuario: string, senha: string): string;
  /** On a separate analytics endpoint: the same login there (merchant lookups), if any. */
  readUrlOf?(personUrl: string): string | undefined;
  vault?: CredentialVault;
  logger?: Logger;
  /**
   * Called when a person's session starts or ends (the live queue reads as the person, through
   * their pool).
   */
  onSignIn?(url: string, pool: pg.Pool): void;
  onSignOut?(): void;
}

const ALL: Permissao[] = [...PERMISSOES];

/**
 * The person using this app and what they may do. `unico` (embedded: the local user is the
 * single supervisor) and `servico` (an administrative login, no people) are signed in from the
 * start; `pessoal` starts signed out until a person signs in with their own login. Passwords
 * stay here (and, with "lembrar", only encrypted in the vault); the renderer sees the view.
 */
export function createAccess<H>(opts: AccessOptions<H>) {
  const { base, logger } = opts;
  const vault = opts.vault ?? noVault();
  let current: Current<H> | null = null;
  let aviso: string | null = null;
  const timeouts = dbTimeoutsOf(base.settings.get());

  const session: SessionSource = {
    view,
    signIn: (input) => signIn(input.usuario, input.senha, input.lembrar),
    signOut,
  };
  const serviceHandlers = opts.makeHandlers(base, session);

  function view(): SessionView {
    const st = vault.status();
    const signedIn = opts.modo !== 'pessoal' || current !== null;
    return {
      modo: opts.modo,
      entrou: signedIn,
      login: current?.login ?? (opts.modo === 'servico' ? base.settings.get().operator : null),
      papeis: current?.papeis ?? (opts.modo === 'servico' ? ['supervisor'] : []),
      permissoes: current?.permissoes ?? (opts.modo === 'servico' ? ALL : []),
      podeSair: opts.modo === 'pessoal' && current !== null,
      podeLembrar: opts.modo === 'pessoal' && st.ok,
      motivoSemLembrar: st.ok ? null : st.reason,
      aviso,
    };
  }

  function open(url: string): { pool: pg.Pool; readPool: pg.Pool | undefined } {
    const pool = createPool(url, {
      max: 4,
      applicationName: 'balcao-pessoa',
      timeouts,
      onConnectionError: (err) => logger?.warn({ err }, 'conexão da pessoa perdida'),
    });
    const readUrl = opts.readUrlOf?.(url);
    const readPool = readUrl
      ? createPool(readUrl, { max: 2, applicationName: 'balcao-pessoa-leitura', timeouts })
      : undefined;
    return { pool, readPool };
  }

  /** Starts a person's session on an open pool whose identity was checked. */
  function start(
    url: string,
    pools: { pool: pg.Pool; readPool: pg.Pool | undefined },
    id: Identity,
  ) {
    const deps: ServiceDeps = {
      ...base,
      settings: settingsFor(base.settings, id.login),
      dbs: {
        ...base.dbs,
        // A person never holds the admin connection: admin-only code paths fail closed.
        admin: pools.pool,
        app: pools.pool,
        ...(pools.readPool ? { appRead: pools.readPool } : {}),
        // No fallback to the primary as the app role: that role is not this person.
        fallback: undefined,
      },
    };
    current = {
      ...id,
      url,
      ...pools,
      permissoes: permissoesDe(id.papeis),
      handlers: opts.makeHandlers(deps, session),
    };
    aviso = null;
    opts.onSignIn?.(url, pools.pool);
    logger?.info({ login: id.login, papeis: id.papeis }, 'pessoa entrou');
  }

  async function end(): Promise<void> {
    const c = current;
    current = null;
    if (!c) return;
    opts.onSignOut?.();
    await Promise.allSettled([c.pool.end(), c.readPool?.end()]);
  }

  async function signIn(usuario: string, senha: string, lembrar: boolean): Promise<SessionView> {
    if (opts.modo !== 'pessoal' || !opts.personUrl) {
      throw new AppError('conflito', 'Este Balcão não pede entrada por pessoa.');
    }
    if (lembrar) {
      const st = vault.status();
      if (!st.ok) throw new AppError('configuracao', st.reason);
    }
    // The typed password never reaches a log line, an IPC result or an error text (#12 point 5).
    // Short ones are not registered: masking "2026" everywhere would shred dates and amounts, and
    // `balcao usuarios criar` asks for at least 8 characters.
    if (senha.length >= 8) registerSecret(senha);
    const url = opts.personUrl(usuario, senha);
    const pools = open(url);
    let id: Identity;
    try {
      id = await identify(pools.pool);
    } catch (e) {
      await Promise.allSettled([pools.pool.end(), pools.readPool?.end()]);
      throw signInError(e);
    }
    if (!id.papeis.length) {
      await Promise.allSettled([pools.pool.end(), pools.readPool?.end()]);
      throw new AppError(
        'acesso_negado',
        `O login ${id.login} não tem papel no Balcão (suporte, financeiro ou supervisor). Peça a um supervisor para incluí-lo.`,
      );
    }
    if (current) await signOut();
    start(url, pools, id);
    if (lembrar) vault.save({ usuario, senha });
    return view();
  }

  async function signOut(): Promise<SessionView> {
    if (opts.modo !== 'pessoal') {
      throw new AppError(
        'conflito',
        'Nesta instalação não há entrada por pessoa: não há como sair.',
      );
    }
    const c = current;
    if (c?.permissoes.includes('fila')) {
      // Items this person held go back to the queue at once (audited), then the session ends.
      await releaseAllOf(c.pool).catch((err: unknown) =>
        logger?.warn({ err }, 'não foi possível devolver os itens ao sair'),
      );
    }
    vault.clear();
    await end();
    return view();
  }

  const gate: AccessGate = {
    check(channel) {
      const need = CHANNEL_ACCESS[channel];
      if (need === 'publico') return null;
      if (opts.modo === 'servico') return null;
      if (!current)
        return new AppError('acesso_negado', 'Entre com seu usuário e senha para continuar.');
      if (need === 'sessao' || current.permissoes.includes(need)) return null;
      return new AppError('acesso_negado', NEGADO[need]);
    },
    async verify(channel) {
      // The sales channels use the shared analytics login, which cannot tell people apart: the
      // person's own login says, right before, whether it is still in a group that may read sales.
      const c = current;
      if (opts.modo !== 'pessoal' || !c || CHANNEL_ACCESS[channel] !== 'vendas') return null;
      let id: Identity;
      try {
        id = await identify(c.pool);
      } catch (e) {
        // Out of every Balcão group, the login cannot even ask (no EXECUTE): no role left.
        if ((rawDbError(e) as { code?: string } | undefined)?.code !== '42501') {
          return (await gate.afterFailure?.(e)) ?? mapDbError(e);
        }
        id = { login: c.login, papeis: [] };
      }
      if (c !== current) return null;
      c.papeis = id.papeis;
      c.permissoes = permissoesDe(id.papeis);
      return c.permissoes.includes('vendas') ? null : new AppError('acesso_negado', NEGADO.vendas);
    },
    async afterFailure(e) {
      const c = current;
      if (!c) return null;
      const code = (rawDbError(e) as { code?: string } | undefined)?.code;
      const suspicious =
        code === '28000' ||
        code === '28P01' ||
        code === '57P01' ||
        (e instanceof AppError && (e.code === 'banco_indisponivel' || e.code === 'configuracao'));
      if (!suspicious) return null;
      // Through PgBouncer the client login may succeed and the server login fail at the first
      // statement (the pooler forwards the server's refusal): probe both.
      const probe = new pg.Client({ connectionString: c.url, connectionTimeoutMillis: 5_000 });
      probe.on('error', () => undefined);
      let refused: Recusa | null = null;
      try {
        await probe.connect();
        await probe.query('SELECT 1');
      } catch (err) {
        refused = loginRefusal(err);
      } finally {
        await probe.end().catch(() => undefined);
      }
      if (!refused) return null;
      const msg = {
        desativado: `O login ${c.login} foi desativado: sua sessão foi encerrada. Fale com um supervisor.`,
        senha: `A senha do login ${c.login} mudou: sua sessão foi encerrada. Entre de novo.`,
        recusado: `O login ${c.login} não pode mais entrar (desativado ou com outra senha): sua sessão foi encerrada. Fale com um supervisor.`,
      }[refused];
      logger?.warn(
        { login: c.login, code: refused },
        'sessão encerrada: login recusado pelo banco',
      );
      if (opts.modo === 'pessoal') {
        vault.clear();
        await end();
        aviso = msg;
      }
      return new AppError('acesso_negado', msg);
    },
  };

  return {
    gate,
    session,
    view,
    /** The current person's handlers (before sign-in: only the session channels pass the gate). */
    handlers: (): H => current?.handlers ?? serviceHandlers,
    /** unico, or a login from libpq sources (PGUSER/PGPASSWORD/.pgpass): already signed in. */
    async adopt(url: string): Promise<Identity> {
      const pools = open(url);
      try {
        const id = await identify(pools.pool);
        start(url, pools, id);
        return id;
      } catch (e) {
        await Promise.allSettled([pools.pool.end(), pools.readPool?.end()]);
        throw mapDbError(e);
      }
    },
    /** pessoal: sign in with the remembered user and password, if any. */
    async resume(): Promise<void> {
      const r = vault.load();
      if (!r || current) return;
      try {
        await signIn(r.usuario, r.senha, false);
      } catch (e) {
        aviso = `A entrada lembrada não funcionou: ${e instanceof AppError ? e.message : 'erro inesperado'}`;
      }
    },
    close: end,
  };
}
export type Access<H> = ReturnType<typeof createAccess<H>>;

type Recusa = 'desativado' | 'senha' | 'recusado';

/**
 * Why the server (or PgBouncer in front of it) refuses a login, if it does: PostgreSQL says 28000
 * / 28P01; PgBouncer answers its own client authentication with 08P01 ("SASL authentication
 * failed", "password authentication failed": wrong password, or a login its auth_query no longer
 * returns) and forwards the server's refusal ("not permitted to log in") at the first statement.
 */
export function loginRefusal(e: unknown): Recusa | null {
  const code = (e as { code?: string }).code;
  const msg = e instanceof Error ? e.message : '';
  if (code === '28000' || /not permitted to log in/i.test(msg)) return 'desativado';
  if (code === '28P01') return 'senha';
  if (code === '08P01' && /(password|SASL) authentication failed|no such user/i.test(msg)) {
    return 'recusado';
  }
  return null;
}

function signInError(e: unknown): AppError {
  const recusa = loginRefusal(e);
  if (recusa === 'senha' || recusa === 'recusado') {
    return new AppError('acesso_negado', 'Usuário ou senha incorretos.');
  }
  if (recusa === 'desativado') {
    return new AppError(
      'acesso_negado',
      'Este login está desativado ou não pode entrar no banco. Fale com um supervisor.',
    );
  }
  return mapDbError(e);
}
