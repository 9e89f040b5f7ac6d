import { AppError } from '@shared/errors';
import type pg from 'pg';
import { releaseClient } from '../db/tx';
import { PAPEIS, type Papel } from '@shared/permissions';
import { GROUP_ROLES } from '../db/roles';
import { scramVerifier } from './scram';

/** One person's login as `balcao usuarios listar` shows it. */
export interface Pessoa {
  nome: string;
  papeis: Papel[];
  ativo: boolean;
}

/** Login names: lower-case letters, digits, `_`, `.` and `-`; not a reserved prefix. */
export function checkLoginName(nome: string): string {
  if (!/^[a-z_][a-z0-9_.-]{1,62}$/.test(nome)) {
    throw new AppError(
      'entrada_invalida',
      `Nome de login inválido: "${nome}". Use de 2 a 63 caracteres: letras minúsculas sem acento, números, ".", "_" ou "-", começando por letra.`,
    );
  }
  if (/^(pg_|balcao_)/.test(nome) || nome === 'postgres' || nome === 'public') {
    throw new AppError('entrada_invalida', `O nome "${nome}" é reservado. Escolha outro.`);
  }
  return nome;
}

export function checkPassword(senha: string): string {
  if (senha.length < 8) {
    throw new AppError('entrada_invalida', 'A senha precisa ter pelo menos 8 caracteres.');
  }
  if (senha.length > 200) {
    throw new AppError('entrada_invalida', 'A senha pode ter no máximo 200 caracteres.');
  }
  return senha;
}

async function withAdmin<T>(admin: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await admin.connect();
  let failed: unknown;
  try {
    return await fn(c);
  } catch (e) {
    failed = e;
    throw e;
  } finally {
    releaseClient(c, failed);
  }
}

const LIST_SQL = `
  SELECT r.rolname AS nome, r.rolcanlogin AS ativo,
         array_agg(substr(g.rolname, 8) ORDER BY g.rolname) AS papeis
    FROM pg_roles r
    JOIN pg_auth_members m ON m.member = r.oid
    JOIN pg_roles g ON g.oid = m.roleid
   WHERE g.rolname = ANY($1::text[]) AND NOT r.rolsuper AND r.rolname NOT LIKE 'balcao\\_%'
   GROUP BY r.rolname, r.rolcanlogin`;

/** People: logins that are direct members of a Balcão group role (active or not), by name. */
export async function listPeople(admin: pg.Pool): Promise<Pessoa[]> {
  const r = await admin.query<Pessoa>(`${LIST_SQL} ORDER BY r.rolname`, [
    Object.values(GROUP_ROLES),
  ]);
  return r.rows.map((p) => ({ ...p, papeis: p.papeis.filter((x) => PAPEIS.includes(x)) }));
}

async function personOrFail(c: pg.PoolClient, nome: string): Promise<Pessoa> {
  const r = await c.query<Pessoa>(
    `${LIST_SQL.replace('GROUP BY', 'AND r.rolname = $2 GROUP BY')}`,
    [Object.values(GROUP_ROLES), nome],
  );
  const p = r.rows[0];
  if (!p) {
    throw new AppError(
      'nao_encontrado',
      `Não há pessoa "${nome}" no Balcão (logins criados com "balcao usuarios criar").`,
    );
  }
  return p;
}

/**
 * Creates a person's login, member of `balcao_<papel>`. The password goes as a SCRAM verifier
 * (never in clear to the server); the role gets the same bounded waits as the app role.
 */
export async function createPerson(
  admin: pg.Pool,
  args: { nome: string; papel: Papel; senha: string },
): Promise<Pessoa> {
  const nome = checkLoginName(args.nome);
  const senha = checkPassword(args.senha);
  return withAdmin(admin, async (c) => {
    const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [nome]);
    if (exists.rowCount) {
      throw new AppError('conflito', `Já existe um login "${nome}" neste servidor PostgreSQL.`);
    }
    const id = c.escapeIdentifier(nome);
    await c.query('BEGIN');
    try {
      await c.query(
        `CREATE ROLE ${id} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT PASSWORD ${c.escapeLiteral(scramVerifier(senha))} IN ROLE ${GROUP_ROLES[args.papel]}`,
      );
      await c.query(`ALTER ROLE ${id} SET statement_timeout = '15s'`);
      await c.query(`ALTER ROLE ${id} SET lock_timeout = '3s'`);
      await c.query(`ALTER ROLE ${id} SET idle_in_transaction_session_timeout = '30s'`);
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      if ((e as { code?: string }).code === '42710') {
        throw new AppError('conflito', `Já existe um login "${nome}" neste servidor PostgreSQL.`);
      }
      if ((e as { code?: string }).code === '42501') {
        throw new AppError(
          'acesso_negado',
          'A conexão de administração não pode criar logins (precisa de CREATEROLE).',
        );
      }
      throw e;
    }
    return personOrFail(c, nome);
  });
}

/**
 * Cuts a person off: the login can no longer connect, its open sessions are ended (the app
 * reconnects and is refused: the next call fails with a clear message), and the items it held
 * go back to the queue (audited).
 */
export async function deactivatePerson(
  admin: pg.Pool,
  nome: string,
): Promise<{ pessoa: Pessoa; sessoesEncerradas: number; itensLiberados: number }> {
  return withAdmin(admin, async (c) => {
    await personOrFail(c, nome);
    await c.query(`ALTER ROLE ${c.escapeIdentifier(nome)} NOLOGIN`);
    await c.query('BEGIN');
    let liberados: number;
    try {
      const r = await c.query<{ id: number }>(
        `UPDATE extracoes SET lease_operador = NULL, lease_token = NULL, lease_expira_em = NULL
          WHERE lease_login = $1 RETURNING id`,
        [nome],
      );
      for (const { id } of r.rows) {
        await c.query(
          `INSERT INTO auditoria (operador, acao, extracao_id, detalhes) VALUES ($1, 'liberou', $2, $3)`,
          ['sistema', id, JSON.stringify({ motivo: 'login_desativado', login_anterior: nome })],
        );
      }
      await c.query('COMMIT');
      liberados = r.rows.length;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    const k = await c.query<{ n: number }>(
      `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n
         FROM pg_stat_activity WHERE usename = $1`,
      [nome],
    );
    return {
      pessoa: await personOrFail(c, nome),
      sessoesEncerradas: k.rows[0]?.n ?? 0,
      itensLiberados: liberados,
    };
  });
}

/** Lets a deactivated person sign in again. */
export async function reactivatePerson(admin: pg.Pool, nome: string): Promise<Pessoa> {
  return withAdmin(admin, async (c) => {
    await personOrFail(c, nome);
    await c.query(`ALTER ROLE ${c.escapeIdentifier(nome)} LOGIN`);
    return personOrFail(c, nome);
  });
}
