/**
 * Compiles a validated, resolved sales query to ONE parameterized SQL statement.
 *
 * Every piece of SQL text comes from the closed maps below, keyed by enum values that zod has
 * already checked; everything else (dates, zone, modalities, limit, merchant) travels as a bind
 * parameter. Nothing the model wrote is ever concatenated.
 */
import {
  DIAS_DA_SEMANA,
  MODALIDADES,
  type Agrupamento,
  type ConsultaVendas,
  type Metrica,
} from '@shared/sales-dsl';
import { MAX_PERIOD_DAYS, monthsInRange, periodLength } from '@shared/periods';
import { addDays, startOfLocalDay } from '@shared/time';
import { rollupGroupSql, rollupsServeZone, rollupTotalSql } from './rollup-sql';

/**
 * Where the rows come from:
 * - `rollups`: the exact per-merchant daily/hourly rollups kept by triggers on transacoes,
 *   through their tenant views (see rollup-sql.ts). What the product executor uses when they serve
 *   the configured zone, unless the path chooser finds `view` reads less for the question
 *   (path.ts: a small merchant's short period); same answers as `view`, reading thousands of rows
 *   instead of millions.
 * - `view`: `vendas_aprovadas`, the tenant-scoped view the analytics role reads (tenant and
 *   status filtered by the view itself; the merchant id is set on the transaction).
 * - `base`: the "textbook" query on `transacoes` with the merchant and status filters written
 *   out (owner connection only; used to cross-check and benchmark other execution paths).
 */
export type SalesSource = 'rollups' | 'view' | 'base';

export interface CompileContext {
  merchantId: number;
  /** IANA zone of the business day (settings.timeZone). */
  timeZone: string;
  source?: SalesSource;
  /**
   * Also return the merchant's busiest month of these months (half-open first days) as the
   * column `maior_mes` of every row: what the path chooser needs (path.ts), read in the answer's
   * own statement (tenant function, analytics role; not with `base`).
   */
  volume?: readonly [string, string];
}

export interface CompiledQuery {
  text: string;
  values: unknown[];
}

/** Aggregates over the filtered rows (alias `v`). */
const METRIC_SQL: Record<Metrica, string> = {
  total_bruto: 'coalesce(sum(v.valor_bruto_centavos), 0)::bigint',
  total_liquido: 'coalesce(sum(v.valor_liquido_centavos), 0)::bigint',
  quantidade: 'count(*)::bigint',
  // numeric round(): half away from zero, to whole centavos; null when there is no sale.
  ticket_medio: 'round(avg(v.valor_bruto_centavos))::bigint',
};

/** Group key over the rows; `$Z` is replaced by the zone parameter. Local buckets. */
const GROUP_KEY_SQL: Record<Exclude<Agrupamento, 'nenhum'>, string> = {
  dia: '(v.aprovada_em AT TIME ZONE $Z)::date',
  mes: "date_trunc('month', v.aprovada_em AT TIME ZONE $Z)::date",
  dia_da_semana: 'extract(isodow FROM v.aprovada_em AT TIME ZONE $Z)::int',
  hora: 'extract(hour FROM v.aprovada_em AT TIME ZONE $Z)::int',
  modalidade: 'v.modalidade',
  bandeira: 'v.bandeira',
};

/** The `grupo` text of the result, from the key `g`; `$W` = weekday codes parameter. */
const GROUP_LABEL_SQL: Record<Exclude<Agrupamento, 'nenhum'>, string> = {
  dia: "to_char(g, 'YYYY-MM-DD')",
  mes: "to_char(g, 'YYYY-MM')",
  dia_da_semana: '($W::text[])[g]',
  hora: "lpad(g::text, 2, '0')",
  modalidade: 'g',
  bandeira: 'g',
};

/**
 * Zero-filled calendars over the period, as offsets from its first day (month) into a series of
 * FIXED length cut by a parameter: the planner's row estimate is then the same whatever the
 * dates, so a prepared statement keeps one generic plan. A series over the dates themselves has
 * its length estimated from them when they are known (PostgreSQL 17+ for timestamps, every
 * version for integers), and PostgreSQL then plans the statement again on every answer (never a
 * generic plan; ~0.1–0.2 ms each). $A = first day (or its month), $N = last offset. Validated
 * periods hold at most MAX_PERIOD_DAYS days (13 months); a longer one (only built by hand) uses
 * the plain series.
 */
interface Calendar {
  /** The fixed-length series, for a last offset up to `max`. */
  sql: string;
  max: number;
  /** The plain series, for a longer period. */
  long: string;
  /** First day of the calendar and its last offset. */
  span(q: ConsultaVendas): { first: string; last: number };
}

const CALENDAR_SQL: Record<'dia' | 'mes', Calendar> = {
  dia: {
    sql: `SELECT $A::date + i AS g FROM generate_series(0, ${MAX_PERIOD_DAYS - 1}) AS i WHERE i <= $N::int`,
    max: MAX_PERIOD_DAYS - 1,
    long: 'SELECT $A::date + i AS g FROM generate_series(0, $N::int) AS i',
    span: (q) => ({ first: q.data_inicio, last: periodLength(q) - 1 }),
  },
  mes: {
    sql: 'SELECT ($A::date + make_interval(months => i))::date AS g FROM generate_series(0, 12) AS i WHERE i <= $N::int',
    max: 12,
    long: 'SELECT ($A::date + make_interval(months => i))::date AS g FROM generate_series(0, $N::int) AS i',
    span: (q) => {
      const months = monthsInRange(q);
      return { first: `${months[0]}-01`, last: months.length - 1 };
    },
  },
};

const FROM_SQL: Record<Exclude<SalesSource, 'rollups'>, string> = {
  view: 'vendas_aprovadas v',
  base: 'transacoes v',
};

/** Instant (ISO, UTC) a local day starts: the half-open day is [start(d), start(d + 1)). */
export function localDayStart(isoDate: string, zone: string): string {
  return startOfLocalDay(isoDate, zone).toISOString();
}

export function compileSalesQuery(q: ConsultaVendas, ctx: CompileContext): CompiledQuery {
  const source = ctx.source ?? 'view';
  if (source === 'rollups' && !rollupsServeZone(ctx.timeZone)) {
    throw new Error(`rollups não servem o fuso ${ctx.timeZone}`);
  }
  const values: unknown[] = [];
  const param = (v: unknown): string => {
    values.push(v);
    return `$${values.length}`;
  };

  const where: string[] = [];
  if (source === 'base') {
    where.push(`v.merchant_id = ${param(ctx.merchantId)}::bigint`, `v.status = 'aprovada'`);
  }
  const filtro = {
    ...q,
    modalidades: q.modalidades.length < MODALIDADES.length ? q.modalidades : [],
  };
  // With rollups, the period and the filter are applied inside the rollup SQL.
  if (source !== 'rollups') {
    where.push(
      `v.aprovada_em >= ${param(localDayStart(q.data_inicio, ctx.timeZone))}::timestamptz`,
      `v.aprovada_em < ${param(localDayStart(addDays(q.data_fim, 1), ctx.timeZone))}::timestamptz`,
    );
    if (filtro.modalidades.length > 0) {
      where.push(`v.modalidade = ANY(${param(q.modalidades)}::text[])`);
    }
  }
  const from = source === 'rollups' ? '' : `FROM ${FROM_SQL[source]} WHERE ${where.join(' AND ')}`;
  const metric = METRIC_SQL[q.metrica];
  // One scalar subquery (an InitPlan, run once) beside the answer's columns.
  const extra =
    ctx.volume && source !== 'base'
      ? `, (SELECT coalesce(max(m.q), 0)::bigint FROM (SELECT sum(r.quantidade) AS q
             FROM vendas_mensais_atuais(${param(ctx.volume[0])}::date, ${param(ctx.volume[1])}::date) r
             GROUP BY r.mes) m) AS maior_mes`
      : '';

  if (q.agrupar_por === 'nenhum') {
    if (source === 'rollups') return { text: rollupTotalSql(filtro, param, extra), values };
    return { text: `SELECT NULL::text AS grupo, ${metric} AS valor${extra} ${from}`, values };
  }

  const g = q.agrupar_por;
  let zoneParam: string | undefined;
  const withZone = (sql: string) => sql.replace(/\$Z/g, () => (zoneParam ??= param(ctx.timeZone)));
  const agg =
    source === 'rollups'
      ? rollupGroupSql(filtro, g, param)
      : `SELECT ${withZone(GROUP_KEY_SQL[g])} AS g, ${metric} AS valor ${from} GROUP BY 1`;
  const label = GROUP_LABEL_SQL[g].replace('$W', () => param([...DIAS_DA_SEMANA]));
  const calendar = g === 'dia' || g === 'mes' ? CALENDAR_SQL[g] : undefined;

  let body: string;
  if (calendar) {
    const { first, last } = calendar.span(q);
    const cal = (last <= calendar.max ? calendar.sql : calendar.long)
      .replace('$A', () => param(first))
      .replace('$N', () => param(last));
    const empty = q.metrica === 'ticket_medio' ? 'agg.valor' : 'coalesce(agg.valor, 0)::bigint';
    body = `WITH agg AS (${agg}), grupos AS (${cal})
      SELECT g, ${label} AS grupo, ${empty} AS valor FROM grupos LEFT JOIN agg USING (g)`;
  } else {
    body = `WITH agg AS (${agg}) SELECT g, ${label} AS grupo, valor FROM agg`;
  }

  let order: string;
  if (q.ordem) {
    order = `valor ${q.ordem === 'crescente' ? 'ASC' : 'DESC'} NULLS LAST, g ASC NULLS LAST`;
  } else if (g === 'modalidade' || g === 'bandeira') {
    order = 'valor DESC NULLS LAST, g ASC NULLS LAST';
  } else {
    order = 'g ASC';
  }
  if (q.limite === null) {
    return { text: `SELECT grupo, valor${extra} FROM (${body}) r ORDER BY ${order}`, values };
  }
  // Top N as row numbers, not LIMIT $n: a LIMIT's row estimate follows its value, so PostgreSQL
  // re-planned the prepared statement on every execution (never a generic plan; ~0.15 ms per
  // answer). Same rows, same order: ties are broken by the group key.
  return {
    text: `SELECT grupo, valor${extra} FROM (
      SELECT grupo, valor, row_number() OVER (ORDER BY ${order}) AS n FROM (${body}) r) r
      WHERE n <= ${param(q.limite)}::int ORDER BY n`,
    values,
  };
}
