/**
 * Painel da equipe (#39.3): one function for the window (`review/teamPanel`) and
 * `balcao fila painel`. Every figure comes from PostgreSQL, relative to `agora` from the one
 * clock; "today" and the 7 days are days of the business time zone.
 */
import type pg from 'pg';
import { FAIXAS_IDADE, type TeamPanel, type TeamPanelDay } from '@shared/contract/review-panel';
import { addDays, localDate, startOfLocalDay } from '@shared/time';
import { query } from '../db/tx';
import { failureAlert, validationFailureRate } from './failure-rate';
import type { DeadlineMinutes } from './rows';

export type { DeadlineMinutes };

/**
 * The deadline's length and start of an item aliased `e`, in SQL, with the minutes as the
 * parameters $a (falhou), $b (incompleto, com_alerta, completo), $c (aguardando_lojista).
 * The start is when the item entered its situation (migration 1000).
 */
export function deadlineSql(a: string, b: string, c: string) {
  const duracao = `make_interval(mins => CASE e.situacao WHEN 'falhou' THEN ${a}::int
      WHEN 'aguardando_lojista' THEN ${c}::int ELSE ${b}::int END)`;
  const inicio = 'coalesce(e.situacao_desde, e.aguardando_desde, e.criada_em)';
  return { duracao, inicio, prazo: `(${inicio} + ${duracao})` };
}

/** What an agent did that counts as handling an item (closing it or asking the merchant). */
const TRATOU = `('cobranca_criada', 'descartada', 'pergunta_ao_lojista')`;
/** The automatic operator of the intake (intake/reply.ts). */
const SISTEMA = 'sistema';

export interface TeamPanelOptions {
  agora: Date;
  timeZone: string;
  prazos: DeadlineMinutes;
  alertaFalhasValidacaoPct: number;
}

export async function teamPanel(pool: pg.Pool, o: TeamPanelOptions): Promise<TeamPanel> {
  const hoje = localDate(o.agora, o.timeZone);
  const inicioHoje = startOfLocalDay(hoje, o.timeZone);
  const primeiroDia = addDays(hoje, -6);
  const inicio7 = startOfLocalDay(primeiroDia, o.timeZone);
  const d = deadlineSql('$2', '$3', '$4');
  const [backlog, agentes, leases, auto, vf, diasExt, diasAgentes] = await Promise.all([
    query<{
      situacao: string;
      total: number;
      ate_1h: number;
      de_1h_a_4h: number;
      de_4h_a_24h: number;
      mais_de_24h: number;
      atrasados: number;
      vencendo: number;
    }>(
      pool,
      `SELECT situacao, count(*)::int AS total,
              count(*) FILTER (WHERE idade < interval '1 hour')::int AS ate_1h,
              count(*) FILTER (WHERE idade >= interval '1 hour' AND idade < interval '4 hours')::int AS de_1h_a_4h,
              count(*) FILTER (WHERE idade >= interval '4 hours' AND idade < interval '24 hours')::int AS de_4h_a_24h,
              count(*) FILTER (WHERE idade >= interval '24 hours')::int AS mais_de_24h,
              count(*) FILTER (WHERE prazo <= $1::timestamptz)::int AS atrasados,
              count(*) FILTER (WHERE prazo > $1::timestamptz AND prazo - $1::timestamptz < duracao * 0.25)::int AS vencendo
         FROM (SELECT e.situacao, $1::timestamptz - e.criada_em AS idade, ${d.prazo} AS prazo,
                      ${d.duracao} AS duracao
                 FROM extracoes e
                WHERE e.fila_estado IN ('aberta', 'aguardando_lojista')) x
        GROUP BY situacao ORDER BY situacao`,
      [o.agora, o.prazos.falhou, o.prazos.incompleto, o.prazos.aguardando],
    ),
    query<{ operador: string; tratados: number; mediana: number | null }>(
      pool,
      `WITH acoes AS (
         SELECT a.operador, a.ocorrido_em,
                (SELECT max(b.ocorrido_em) FROM auditoria b
                  WHERE b.extracao_id = a.extracao_id AND b.operador = a.operador
                    AND b.acao IN ('assumiu', 'assumiu_de') AND b.ocorrido_em <= a.ocorrido_em
                ) AS assumiu_em
           FROM auditoria a
          WHERE a.acao IN ${TRATOU} AND a.operador <> $3
            AND a.ocorrido_em >= $1 AND a.ocorrido_em < $2)
       SELECT operador, count(*)::int AS tratados,
              (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ocorrido_em - assumiu_em))
                 FILTER (WHERE assumiu_em IS NOT NULL))::float8 AS mediana
         FROM acoes GROUP BY operador`,
      [inicioHoje, o.agora, SISTEMA],
    ),
    query<{ operador: string; id: number; expira: Date }>(
      pool,
      `SELECT DISTINCT ON (lease_operador) lease_operador AS operador, id::int AS id,
              lease_expira_em AS expira
         FROM extracoes
        WHERE fila_estado = 'aberta' AND lease_expira_em > $1
        ORDER BY lease_operador, lease_expira_em DESC, id`,
      [o.agora],
    ),
    query<{ n: number; auto: number }>(
      pool,
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE resolvida_por = $2)::int AS auto
         FROM extracoes
        WHERE criada_em >= $1::timestamptz - interval '24 hours' AND criada_em < $1::timestamptz`,
      [o.agora, SISTEMA],
    ),
    // The last 24 h up to the panel's instant (the bound also closes the window).
    validationFailureRate(
      pool,
      `$1::timestamptz - interval '24 hours' AND criada_em < $1::timestamptz`,
      [o.agora],
    ),
    query<{ dia: string; n: number; auto: number; falhou: number }>(
      pool,
      `SELECT to_char((criada_em AT TIME ZONE $3)::date, 'YYYY-MM-DD') AS dia, count(*)::int AS n,
              count(*) FILTER (WHERE resolvida_por = $4)::int AS auto,
              count(*) FILTER (WHERE status = 'falhou')::int AS falhou
         FROM extracoes WHERE criada_em >= $1::timestamptz AND criada_em < $2::timestamptz
        GROUP BY 1`,
      [inicio7, o.agora, o.timeZone, SISTEMA],
    ),
    query<{ dia: string; n: number }>(
      pool,
      `SELECT to_char((ocorrido_em AT TIME ZONE $3)::date, 'YYYY-MM-DD') AS dia, count(*)::int AS n
         FROM auditoria
        WHERE acao IN ${TRATOU} AND operador <> $4
          AND ocorrido_em >= $1::timestamptz AND ocorrido_em < $2::timestamptz
        GROUP BY 1`,
      [inicio7, o.agora, o.timeZone, SISTEMA],
    ),
  ]);

  const porAgente = new Map<string, TeamPanel['agentes'][number]>();
  const agente = (operador: string) => {
    let a = porAgente.get(operador);
    if (!a) {
      a = { operador, tratados_hoje: 0, mediana_tratamento_s: null, reserva: null };
      porAgente.set(operador, a);
    }
    return a;
  };
  for (const r of agentes) {
    const a = agente(r.operador);
    a.tratados_hoje = r.tratados;
    a.mediana_tratamento_s = r.mediana === null ? null : Math.round(r.mediana);
  }
  for (const l of leases) {
    agente(l.operador).reserva = { pedido: l.id, expira_em: l.expira.toISOString() };
  }

  const dias: TeamPanelDay[] = [];
  for (let i = 0; i < 7; i++) {
    const dia = addDays(primeiroDia, i);
    const e = diasExt.find((r) => r.dia === dia);
    dias.push({
      dia,
      extracoes: e?.n ?? 0,
      automaticas: e?.auto ?? 0,
      falhou: e?.falhou ?? 0,
      tratados: diasAgentes.find((r) => r.dia === dia)?.n ?? 0,
    });
  }

  const a = auto[0] ?? { n: 0, auto: 0 };
  return {
    gerado_em: o.agora.toISOString(),
    time_zone: o.timeZone,
    prazos_min: { ...o.prazos },
    backlog: {
      total: backlog.reduce((s, r) => s + r.total, 0),
      por_situacao: backlog.map((r) => {
        const row = {
          situacao: r.situacao,
          total: r.total,
        } as TeamPanel['backlog']['por_situacao'][number];
        for (const f of FAIXAS_IDADE) row[f] = r[f];
        return row;
      }),
    },
    prazos: {
      atrasados: backlog.reduce((s, r) => s + r.atrasados, 0),
      vencendo: backlog.reduce((s, r) => s + r.vencendo, 0),
    },
    agentes: [...porAgente.values()].sort(
      (x, y) => y.tratados_hoje - x.tratados_hoje || x.operador.localeCompare(y.operador, 'pt-BR'),
    ),
    criacao_automatica: { extracoes: a.n, automaticas: a.auto, taxa: a.n ? a.auto / a.n : 0 },
    falhas_validacao: failureAlert(vf, o.alertaFalhasValidacaoPct),
    dias,
  };
}
