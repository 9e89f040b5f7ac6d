/**
 * `balcao db migrate --restringir-analise` (#40.4): the way out of the analytics role's reach
 * check, as part of the product. Roles are cluster-wide and a new database is open to PUBLIC, so
 * on any standard PostgreSQL `balcao_analytics` can CONNECT to `postgres`, `template1` and every
 * other database. The plan closes that without taking anything from anyone else:
 *
 * - on Balcão's database, CONNECT granted by name to Balcão's two roles (they stop depending on
 *   PUBLIC there);
 * - on every other database the analytics role reaches: the login roles that may CONNECT (or use
 *   TEMPORARY) there today get it by name, then PUBLIC and the analytics role lose it.
 *
 * Superuser only; applied in one transaction (GRANT/REVOKE on databases are transactional), then
 * checked again.
 */
import pg from 'pg';
import { AppError } from '@shared/errors';
import { analyticsReach } from './connect';
import { mapDbError } from './errors';
import { ANALYTICS_ROLE, APP_ROLE } from './roles';

const pgClient = pg.Client;
const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export interface AnalyticsRestriction {
  /** Balcão's database (the one the admin URL names). */
  banco: string;
  /** Other databases the analytics role can CONNECT to now. */
  alcancaveis: string[];
  /** The statements, in order (empty: nothing to restrict). */
  comandos: string[];
}

/** Superuser or a pt-BR refusal that says what to use instead. */
async function requireSuperuser(admin: pg.Pool | pg.Client): Promise<void> {
  const r = await admin.query<{ usuario: string; superusuario: boolean }>(
    // is_superuser, not pg_roles: Balcão's migrations close the catalogs to ordinary logins.
    `SELECT current_user AS usuario, current_setting('is_superuser') = 'on' AS superusuario`,
  );
  const me = r.rows[0];
  if (!me?.superusuario) {
    throw new AppError(
      'acesso_negado',
      `Restringir o acesso do usuário de análise precisa de um superusuário do PostgreSQL; ` +
        `${me ? `"${me.usuario}"` : 'o usuário de DATABASE_URL'} não é. ` +
        `Rode com DATABASE_URL de um superusuário (ou aplique os comandos listados por quem administra o servidor).`,
    );
  }
}

/**
 * The superuser check alone, on its own short connection to DATABASE_URL: run before the
 * migrations, so a login that may not restrict is told so before anything is done.
 */
export async function requireSuperuserAt(databaseUrl: string, connectMs: number): Promise<void> {
  const c = new pgClient({ connectionString: databaseUrl, connectionTimeoutMillis: connectMs });
  try {
    await c.connect();
    await requireSuperuser(c);
  } catch (e) {
    throw mapDbError(e);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** What `--restringir-analise` would run on this server, from the admin's view of it. */
export async function analyticsRestrictionPlan(admin: pg.Pool): Promise<AnalyticsRestriction> {
  try {
    await requireSuperuser(admin);
    const banco = (await admin.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!
      .db;
    const alcancaveis = await analyticsReach(admin);
    if (alcancaveis.length === 0) return { banco, alcancaveis, comandos: [] };
    const comandos = [
      `GRANT CONNECT ON DATABASE ${ident(banco)} TO ${APP_ROLE}, ${ANALYTICS_ROLE}`,
    ];
    for (const db of alcancaveis) {
      // Who keeps what they have there: login roles other than Balcão's and the superusers
      // (who need no grant), with the privileges they hold now, PUBLIC's included.
      const keep = await admin.query<{ role: string; connect: boolean; temp: boolean }>(
        `SELECT r.rolname AS role,
                has_database_privilege(r.oid, d.oid, 'CONNECT') AS connect,
                has_database_privilege(r.oid, d.oid, 'TEMPORARY') AS temp
           FROM pg_roles r, pg_database d
          WHERE d.datname = $1 AND r.rolcanlogin AND NOT r.rolsuper
            AND r.rolname NOT IN ($2, $3) AND r.rolname NOT LIKE 'pg\\_%'
            AND r.oid <> d.datdba
          ORDER BY 1`,
        [db, APP_ROLE, ANALYTICS_ROLE],
      );
      const withConnect = keep.rows.filter((k) => k.connect).map((k) => ident(k.role));
      const withTemp = keep.rows.filter((k) => k.temp).map((k) => ident(k.role));
      if (withConnect.length) {
        comandos.push(`GRANT CONNECT ON DATABASE ${ident(db)} TO ${withConnect.join(', ')}`);
      }
      if (withTemp.length) {
        comandos.push(`GRANT TEMPORARY ON DATABASE ${ident(db)} TO ${withTemp.join(', ')}`);
      }
      comandos.push(
        `REVOKE CONNECT, TEMPORARY ON DATABASE ${ident(db)} FROM PUBLIC, ${ANALYTICS_ROLE}`,
      );
    }
    return { banco, alcancaveis, comandos };
  } catch (e) {
    throw mapDbError(e);
  }
}

/**
 * Runs the plan in one transaction, then checks the reach again. Whatever fails leaves the
 * server as it was; what is still reachable afterwards (e.g. through a role the analytics role
 * is a member of) is a pt-BR error naming it.
 */
export async function applyAnalyticsRestriction(
  admin: pg.Pool,
  plan: AnalyticsRestriction,
): Promise<void> {
  const c = await admin.connect();
  try {
    await c.query('BEGIN');
    for (const sql of plan.comandos) await c.query(sql);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw mapDbError(e);
  } finally {
    c.release();
  }
  const still = await analyticsReach(admin).catch((e: unknown) => {
    throw mapDbError(e);
  });
  if (still.length > 0) {
    throw new AppError(
      'configuracao',
      `Os comandos foram aplicados, mas o usuário de análise (${ANALYTICS_ROLE}) ainda conecta em: ` +
        `${still.join(', ')} — por um papel do qual ele é membro ou uma concessão que não é de PUBLIC. ` +
        `Revise com \\l no psql.`,
    );
  }
}
