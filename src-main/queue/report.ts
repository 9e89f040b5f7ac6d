import type { FailureReport } from '@shared/contract/review';
import { AppError } from '@shared/errors';
import type { ExtractionStatus } from '@shared/extraction-types';
import { addDays, daysBetween, startOfLocalDay } from '@shared/time';
import type pg from 'pg';
import { query } from '../db/tx';
import { ROLLUP_TIME_ZONE } from '../sales/rollup-sql';

export const MAX_REPORT_DAYS = 400;

/** Sums per group of the report's queries: failures by status and the model's usage. */
type StatusAndUsageSums = {
  falhou: number;
  incompleto: number;
  input_tokens: number;
  output_tokens: number;
  cache_read: number;
  cache_write: number;
  custo: number;
};

/**
 * "Falhas de validação" over local days [de, ate] in `timeZone`: extractions by status, the
 * rules that fail most over every attempt (with examples), attempts per extraction, tokens and
 * estimated cost per day, and the share of results with an amount alert.
 */
export async function failureReport(
  pool: pg.Pool,
  input: { de: string; ate: string; merchantId?: number | undefined },
  timeZone: string,
  /** Alert threshold of the validation-failure rate, % (BALCAO_ALERTA_FALHAS_VALIDACAO). */
  limiteFalhasPct = 5,
): Promise<FailureReport> {
  if (daysBetween(input.de, input.ate) + 1 > MAX_REPORT_DAYS) {
    throw new AppError('entrada_invalida', 'Escolha um período de até 400 dias.', {
      ate: ['Escolha um período de até 400 dias.'],
    });
  }
  const from = startOfLocalDay(input.de, timeZone).toISOString();
  const to = startOfLocalDay(addDays(input.ate, 1), timeZone).toISOString();
  const values: unknown[] = [from, to];
  let scope = 'e.criada_em >= $1::timestamptz AND e.criada_em < $2::timestamptz';
  if (input.merchantId) scope += ` AND e.merchant_id = $${values.push(input.merchantId)}`;

  type StatusRow = { status: ExtractionStatus; n: number; alertas: number };
  type TentativasRow = { tentativas: number; extracoes: number };
  type DiaRow = StatusAndUsageSums & { dia: string; extracoes: number };
  // In the rollups' zone the per-status, per-attempts and per-day parts come from the
  // maintained per-day counters (migration 0741), in one statement; other zones count the rows.
  const counters =
    timeZone === ROLLUP_TIME_ZONE
      ? countersReport(pool, input.de, input.ate, input.merchantId)
      : null;
  const [status, regras, tentativas, dias] = await Promise.all([
    counters
      ? counters.then((c) => c.status)
      : query<StatusRow>(
          pool,
          `SELECT e.status, count(*)::int AS n,
              count(*) FILTER (WHERE jsonb_typeof(e.alertas) = 'array'
                                 AND jsonb_array_length(e.alertas) > 0)::int AS alertas
         FROM extracoes e WHERE ${scope} GROUP BY 1`,
          values,
        ),
    query<{
      regra: string;
      campo: string;
      mensagem: string;
      falhas: number;
      extracoes: number;
      ids: (string | number)[];
    }>(
      pool,
      `WITH f AS (
         SELECT e.id, err ->> 'regra' AS regra, err ->> 'campo' AS campo, err ->> 'mensagem' AS mensagem
           FROM extracoes e
           JOIN extracao_tentativas t ON t.extracao_id = e.id AND jsonb_typeof(t.erros) = 'array'
           CROSS JOIN LATERAL jsonb_array_elements(t.erros) err
          WHERE ${scope} AND jsonb_typeof(err) = 'object' AND err ? 'regra')
       SELECT regra, min(campo) AS campo, min(mensagem) AS mensagem, count(*)::int AS falhas,
              count(DISTINCT id)::int AS extracoes,
              (array_agg(DISTINCT id ORDER BY id DESC))[1:3] AS ids
         FROM f GROUP BY regra ORDER BY falhas DESC, regra LIMIT 10`,
      values,
    ),
    counters
      ? counters.then((c) => c.tentativas)
      : query<TentativasRow>(
          pool,
          `SELECT e.tentativas, count(*)::int AS extracoes FROM extracoes e WHERE ${scope}
        GROUP BY 1 ORDER BY 1`,
          values,
        ),
    counters
      ? counters.then((c) => c.dias)
      : query<DiaRow>(
          pool,
          `SELECT (e.criada_em AT TIME ZONE $${values.length + 1})::date AS dia,
              count(*)::int AS extracoes,
              count(*) FILTER (WHERE e.status = 'falhou')::int AS falhou,
              count(*) FILTER (WHERE e.status = 'incompleto')::int AS incompleto,
              coalesce(sum((e.uso ->> 'input_tokens')::bigint), 0)::bigint AS input_tokens,
              coalesce(sum((e.uso ->> 'output_tokens')::bigint), 0)::bigint AS output_tokens,
              coalesce(sum((e.uso ->> 'cache_read_input_tokens')::bigint), 0)::bigint AS cache_read,
              coalesce(sum((e.uso ->> 'cache_creation_input_tokens')::bigint), 0)::bigint AS cache_write,
              coalesce(sum(e.custo_estimado_usd), 0)::numeric AS custo
         FROM extracoes e WHERE ${scope} GROUP BY 1 ORDER BY 1`,
          [...values, timeZone],
        ),
  ]);

  // bigint[] arrays arrive as strings.
  const idsOf = (r: { ids: (string | number)[] }) => r.ids.map(Number);
  const exampleIds = [...new Set(regras.flatMap(idsOf))];
  const texts = exampleIds.length
    ? await query<{ id: number; texto: string }>(
        pool,
        'SELECT id, texto FROM extracoes WHERE id = ANY($1::bigint[])',
        [exampleIds],
      )
    : [];
  const textOf = new Map(texts.map((t) => [t.id, t.texto]));

  const porStatus: FailureReport['porStatus'] = { completo: 0, incompleto: 0, falhou: 0 };
  let total = 0;
  let comAlerta = 0;
  for (const s of status) {
    porStatus[s.status] = s.n;
    total += s.n;
    comAlerta += s.alertas;
  }
  const byDay = new Map(dias.map((d) => [d.dia, d]));
  const porDia: FailureReport['porDia'] = [];
  for (let d = input.de; d <= input.ate; d = addDays(d, 1)) {
    const r = byDay.get(d);
    porDia.push({
      dia: d,
      extracoes: r?.extracoes ?? 0,
      falhou: r?.falhou ?? 0,
      incompleto: r?.incompleto ?? 0,
      inputTokens: r?.input_tokens ?? 0,
      outputTokens: r?.output_tokens ?? 0,
      cacheReadTokens: r?.cache_read ?? 0,
      cacheWriteTokens: r?.cache_write ?? 0,
      custoUsd: Math.round((r?.custo ?? 0) * 1e6) / 1e6,
    });
  }
  const attemptsSum = tentativas.reduce((s, t) => s + t.tentativas * t.extracoes, 0);
  return {
    de: input.de,
    ate: input.ate,
    timeZone,
    total,
    porStatus,
    regras: regras.map((r) => ({
      regra: r.regra,
      campo: r.campo ?? '',
      mensagem: r.mensagem ?? r.regra,
      falhas: r.falhas,
      extracoes: r.extracoes,
      exemplos: idsOf(r).map((id) => ({ extracaoId: id, texto: textOf.get(id) ?? '' })),
    })),
    tentativas,
    mediaTentativas: total ? Math.round((attemptsSum / total) * 100) / 100 : 0,
    porDia,
    custoTotalUsd: Math.round(porDia.reduce((s, d) => s + d.custoUsd, 0) * 1e6) / 1e6,
    comAlerta,
    fracaoAlertas: total ? comAlerta / total : 0,
    taxaFalhasValidacao: total ? porStatus.falhou / total : 0,
    limiteFalhasValidacao: limiteFalhasPct / 100,
  };
}

/** The report's per-status, per-attempts and per-day rows from the counters (one statement). */
async function countersReport(
  pool: pg.Pool,
  de: string,
  ate: string,
  merchantId: number | undefined,
) {
  const rows = await query<
    {
      gs: number;
      gt: number;
      gd: number;
      dia: string;
      status: ExtractionStatus;
      tentativas: number;
      n: number;
      alertas: number;
    } & StatusAndUsageSums
  >(
    pool,
    `SELECT GROUPING(status) AS gs, GROUPING(tentativas) AS gt, GROUPING(dia) AS gd,
            dia::text AS dia, status, tentativas, sum(n)::int AS n, sum(alertas)::int AS alertas,
            coalesce(sum(n) FILTER (WHERE status = 'falhou'), 0)::int AS falhou,
            coalesce(sum(n) FILTER (WHERE status = 'incompleto'), 0)::int AS incompleto,
            coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
            coalesce(sum(output_tokens), 0)::bigint AS output_tokens,
            coalesce(sum(cache_read), 0)::bigint AS cache_read,
            coalesce(sum(cache_write), 0)::bigint AS cache_write,
            coalesce(sum(custo), 0)::numeric AS custo
       FROM balcao_relatorio_dias($1::date, $2::date, $3::bigint)
      GROUP BY GROUPING SETS ((status), (tentativas), (dia))`,
    [de, ate, merchantId ?? 0],
  );
  return {
    status: rows
      .filter((r) => r.gs === 0)
      .map((r) => ({ status: r.status, n: r.n, alertas: r.alertas })),
    tentativas: rows
      .filter((r) => r.gt === 0)
      .map((r) => ({ tentativas: r.tentativas, extracoes: r.n }))
      .sort((a, b) => a.tentativas - b.tentativas),
    dias: rows
      .filter((r) => r.gd === 0)
      .map((r) => ({
        dia: r.dia,
        extracoes: r.n,
        falhou: r.falhou,
        incompleto: r.incompleto,
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens,
        cache_read: r.cache_read,
        cache_write: r.cache_write,
        custo: r.custo,
      }))
      .sort((a, b) => (a.dia < b.dia ? -1 : a.dia > b.dia ? 1 : 0)),
  };
}
