/**
 * The textbook design (issue 8, side (a) and the exactness oracle): one aggregate over the base
 * table `transacoes`, served by the index (merchant_id, status, aprovada_em), written directly
 * from issue 4's semantics — approved sales only, the period as local days in a half-open
 * interval [start of first day, start of the day after the last), local buckets. Deliberately
 * independent from the rollup SQL it checks.
 */
import type { CompiledSql, RollupQuery } from '../sales/rollup-sql';

export function compileTextbookSql(q: RollupQuery, merchantId: number, zone: string): CompiledSql {
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  const z = p(zone);
  const local = `(aprovada_em AT TIME ZONE ${z}::text)`;
  const where = [
    `merchant_id = ${p(merchantId)}::bigint`,
    `status = 'aprovada'`,
    `aprovada_em >= (${p(q.data_inicio)}::date::timestamp AT TIME ZONE ${z}::text)`,
    `aprovada_em < ((${p(q.data_fim)}::date + 1)::timestamp AT TIME ZONE ${z}::text)`,
  ];
  if (q.modalidades?.length) where.push(`modalidade = ANY(${p([...q.modalidades])}::text[])`);
  const value = {
    total_bruto: 'sum(valor_bruto_centavos)::bigint',
    total_liquido: 'sum(valor_liquido_centavos)::bigint',
    quantidade: 'count(*)::bigint',
    ticket_medio: 'round(avg(valor_bruto_centavos))::bigint',
  }[q.metrica];
  const zero = q.metrica === 'ticket_medio' ? 'g.valor' : 'coalesce(g.valor, 0)';
  const from = `FROM transacoes WHERE ${where.join(' AND ')}`;
  switch (q.agrupar_por) {
    case 'nenhum':
      return {
        text: `SELECT NULL::text AS grupo, ${q.metrica === 'ticket_medio' ? value : `coalesce(${value}, 0)`} AS valor ${from}`,
        values,
      };
    case 'dia':
      return {
        text: `WITH g AS (SELECT ${local}::date AS k, ${value} AS valor ${from} GROUP BY 1)
               SELECT to_char(s.d, 'YYYY-MM-DD') AS grupo, ${zero} AS valor
                 FROM generate_series(${p(q.data_inicio)}::date, ${p(q.data_fim)}::date, interval '1 day') s(d)
                 LEFT JOIN g ON g.k = s.d::date ORDER BY s.d`,
        values,
      };
    case 'mes':
      return {
        text: `WITH g AS (SELECT to_char(${local}, 'YYYY-MM') AS k, ${value} AS valor ${from} GROUP BY 1)
               SELECT to_char(s.d, 'YYYY-MM') AS grupo, ${zero} AS valor
                 FROM generate_series(date_trunc('month', ${p(q.data_inicio)}::date), ${p(q.data_fim)}::date, interval '1 month') s(d)
                 LEFT JOIN g ON g.k = to_char(s.d, 'YYYY-MM') ORDER BY s.d`,
        values,
      };
    case 'modalidade':
      return {
        text: `SELECT modalidade AS grupo, ${value} AS valor ${from} GROUP BY 1 ORDER BY 1`,
        values,
      };
    case 'bandeira':
      return {
        text: `SELECT bandeira AS grupo, ${value} AS valor ${from} GROUP BY 1 ORDER BY 1 NULLS LAST`,
        values,
      };
    case 'dia_da_semana':
      return {
        text: `SELECT extract(isodow FROM ${local})::int::text AS grupo, ${value} AS valor ${from}
               GROUP BY extract(isodow FROM ${local})::int ORDER BY extract(isodow FROM ${local})::int`,
        values,
      };
    case 'hora':
      return {
        text: `SELECT extract(hour FROM ${local})::int::text AS grupo, ${value} AS valor ${from}
               GROUP BY extract(hour FROM ${local})::int ORDER BY extract(hour FROM ${local})::int`,
        values,
      };
  }
}
