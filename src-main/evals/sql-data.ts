/**
 * The fixed sales data of the free-SQL eval suite: a temporary database created by the suite
 * (migrated like any other, so the same views, roles and guard apply), filled with a
 * deterministic set of sales for two merchants, queried as the analytics login under the same
 * tenant transaction as the product, and dropped at the end. Nothing touches the real data.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DateTime } from 'luxon';
import { mulberry32, weighted } from '../db/prng';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { parseDatabaseUrl, urlForDatabase } from '../db/urls';

/** The merchant the cases ask about; merchant 2 exists so a leak would change the answers. */
export const EVAL_SQL_MERCHANT = 1;
const OUTRO_MERCHANT = 2;
/** Sales from 2026-01-01 to 2026-04-30 (local days in America/Sao_Paulo). */
const INICIO = '2026-01-01';
const FIM = '2026-04-30';
const ZONA = 'America/Sao_Paulo';

export interface EvalSqlDatabase {
  name: string;
  analytics: pg.Pool;
  merchantId: number;
  drop(): Promise<void>;
}

interface Venda {
  merchant: number;
  status: string;
  modalidade: string;
  bandeira: string | null;
  parcelas: number;
  bruto: number;
  liquido: number;
  em: string;
}

const TAXA: Record<string, number> = {
  debito: 0.012,
  credito_avista: 0.028,
  credito_parcelado: 0.039,
  pix: 0.005,
};

/**
 * Deterministic sales: more on weekdays and afternoons, no sales at all between 13h and 14h on
 * Tuesdays, no débito on Sundays, round amounts now and then, a few declined and reversed
 * sales (hidden by the view), and another merchant with very different numbers.
 */
export function evalSqlSales(): Venda[] {
  const out: Venda[] = [];
  for (const merchant of [EVAL_SQL_MERCHANT, OUTRO_MERCHANT]) {
    const rand = mulberry32(merchant === EVAL_SQL_MERCHANT ? 20260301 : 777);
    let dia = DateTime.fromISO(INICIO, { zone: ZONA });
    const fim = DateTime.fromISO(FIM, { zone: ZONA });
    while (dia <= fim) {
      const base = merchant === EVAL_SQL_MERCHANT ? 14 : 40;
      const n = dia.weekday >= 6 ? Math.round(base * 0.6) : base + Math.floor(rand() * 8);
      for (let i = 0; i < n; i++) {
        const hora = weighted(rand, [
          [8, 2],
          [9, 3],
          [10, 4],
          [11, 5],
          [12, 6],
          [13, 4],
          [15, 5],
          [16, 5],
          [17, 6],
          [18, 6],
          [19, 4],
          [20, 2],
        ] as const);
        if (dia.weekday === 2 && hora === 13) continue;
        let modalidade = weighted(rand, [
          ['debito', 3],
          ['credito_avista', 3],
          ['credito_parcelado', 2],
          ['pix', 4],
        ] as const);
        if (dia.weekday === 7 && modalidade === 'debito') modalidade = 'pix';
        const parcelas =
          modalidade === 'credito_parcelado'
            ? weighted(rand, [
                [2, 3],
                [3, 4],
                [6, 2],
                [10, 1],
                [12, 1],
              ] as const)
            : 1;
        const bandeira =
          modalidade === 'pix'
            ? null
            : weighted(rand, [
                ['visa', 4],
                ['mastercard', 4],
                ['elo', 2],
                ['amex', 1],
                ['hipercard', 1],
              ] as const);
        const redondo = rand() < 0.1;
        const bruto = redondo
          ? (1 + Math.floor(rand() * 8)) * 10_000
          : Math.round((800 + rand() * rand() * 90_000) * (merchant === OUTRO_MERCHANT ? 3 : 1));
        const status = weighted(rand, [
          ['aprovada', 92],
          ['negada', 5],
          ['estornada', 3],
        ] as const);
        const em = dia
          .set({ hour: hora, minute: Math.floor(rand() * 60), second: Math.floor(rand() * 60) })
          .toUTC()
          .toISO();
        out.push({
          merchant,
          status,
          modalidade,
          bandeira,
          parcelas,
          bruto,
          liquido: Math.round(bruto * (1 - TAXA[modalidade]!)),
          em: em!,
        });
      }
      dia = dia.plus({ days: 1 });
    }
  }
  return out;
}

/**
 * Creates the suite's database next to `adminUrl`, migrates and fills it, and opens an
 * analytics pool on it with the analytics credentials of `analyticsUrl` (roles are
 * cluster-wide). The admin URL needs CREATE DATABASE.
 */
export async function createEvalSqlDatabase(
  adminUrl: string,
  analyticsUrl: string,
): Promise<EvalSqlDatabase> {
  const name = `balcao_eval_sql_${randomBytes(5).toString('hex')}`;
  const server = new pg.Client({ connectionString: urlForDatabase(adminUrl, 'postgres') });
  await server.connect();
  let created = false;
  const drop = async () => {
    if (!created) return;
    created = false;
    await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  try {
    await server.query(`CREATE DATABASE ${name}`);
    created = true;
    const dbUrl = urlForDatabase(adminUrl, name);
    await migrate(dbUrl);
    await fill(dbUrl);
  } catch (e) {
    await drop().catch(() => undefined);
    await server.end().catch(() => undefined);
    throw e;
  }
  // The analytics login, pointed at the new database on the admin's server.
  const a = parseDatabaseUrl(analyticsUrl, 'ANALYTICS_DATABASE_URL');
  const u = parseDatabaseUrl(urlForDatabase(adminUrl, name));
  u.username = a.username;
  u.password = a.password;
  const analytics = createPool(u.toString(), { max: 2, applicationName: 'balcao-eval-sql' });
  return {
    name,
    analytics,
    merchantId: EVAL_SQL_MERCHANT,
    async drop() {
      await analytics.end().catch(() => undefined);
      try {
        await drop();
      } finally {
        await server.end().catch(() => undefined);
      }
    },
  };
}

async function fill(dbUrl: string): Promise<void> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO merchants (id, nome) VALUES ($1, 'Loja Referência'), ($2, 'Outra Loja')`,
      [EVAL_SQL_MERCHANT, OUTRO_MERCHANT],
    );
    const v = evalSqlSales();
    await c.query(
      `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, parcelas,
                               valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[],
                            $6::bigint[], $7::bigint[], $8::timestamptz[])`,
      [
        v.map((x) => x.merchant),
        v.map((x) => x.status),
        v.map((x) => x.modalidade),
        v.map((x) => x.bandeira),
        v.map((x) => x.parcelas),
        v.map((x) => x.bruto),
        v.map((x) => x.liquido),
        v.map((x) => x.em),
      ],
    );
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await c.end();
  }
}
