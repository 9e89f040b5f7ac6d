/**
 * `balcao fila status`: the intake at a glance, from PostgreSQL (any machine sees the same).
 * The validation-failure rate is the extractor's warning sign: the share of extractions that
 * ended `falhou` (no valid tool call after every attempt) — the same number the report screen
 * "Falhas de validação" shows beside its threshold (BALCAO_ALERTA_FALHAS_VALIDACAO, %).
 */
import { contagem } from '@shared/plural';
import type pg from 'pg';
import { query } from '../db/tx';
import { failureAlert, validationFailureRate } from '../queue/failure-rate';
import { AGUARDANDO_LOJISTA } from './process';

export interface FilaStatus {
  gerado_em: string;
  backlog: {
    pendentes: number;
    em_processamento: number;
    jobs: Record<'created' | 'retry' | 'active' | 'failed', number>;
  };
  /** Over the last 15 minutes. */
  mensagens_por_minuto: { recebidas: number; processadas: number };
  /** Outcomes of the messages processed in the last 24 h. */
  resultados_24h: Record<
    'cobranca_criada' | 'aguardando_lojista' | 'fila' | 'sem_item_aberto' | 'erro',
    number
  >;
  falhas_validacao: {
    /** falhou / extractions created in the last 24 h (0 when none). */
    taxa: number;
    /** Threshold as a fraction (setting, %/100). */
    limite: number;
    alerta: boolean;
    extracoes: number;
    falhou: number;
  };
  /** Estimated model cost of extractions stored in the last hour, USD. */
  custo_por_hora_usd: number;
  mais_antiga_pendente: {
    id: number;
    canal: string;
    mensagem_id: string;
    enfileirada_em: string;
    espera_s: number;
  } | null;
  aguardando_lojista: { itens: number; mais_antigo_desde: string | null };
  pausa_ate: string | null;
}

export async function filaStatus(pool: pg.Pool, limitePct: number): Promise<FilaStatus> {
  const [backlog, jobs, rate, mix, custo, oldest, waiting, pausa, vf] = await Promise.all([
    query<{ pendentes: number; em_processamento: number }>(
      pool,
      `SELECT count(*)::int AS pendentes,
              count(*) FILTER (WHERE lease_expira_em > now())::int AS em_processamento
         FROM mensagens WHERE estado = 'pendente'`,
    ),
    query<{ state: string; n: number }>(
      pool,
      `SELECT state::text, count(*)::int AS n FROM pgboss.job WHERE name = 'intake' GROUP BY 1`,
    ),
    query<{ recebidas: number; processadas: number }>(
      pool,
      `SELECT (SELECT count(*) FROM mensagens WHERE enfileirada_em >= now() - interval '15 minutes')::int AS recebidas,
              (SELECT count(*) FROM mensagens WHERE processada_em >= now() - interval '15 minutes')::int AS processadas`,
    ),
    query<{ resultado: string; n: number }>(
      pool,
      `SELECT coalesce(resultado, estado) AS resultado, count(*)::int AS n FROM mensagens
        WHERE processada_em >= now() - interval '24 hours' GROUP BY 1`,
    ),
    query<{ usd: number }>(
      pool,
      `SELECT coalesce(sum(custo_estimado_usd), 0)::float8 AS usd FROM extracoes
        WHERE criada_em >= now() - interval '1 hour'`,
    ),
    query<{
      id: number;
      canal: string;
      mensagem_id: string;
      enfileirada_em: Date;
      espera_s: number;
    }>(
      pool,
      `SELECT id, canal, mensagem_id, enfileirada_em,
              extract(epoch FROM now() - enfileirada_em)::float8 AS espera_s
         FROM mensagens WHERE estado = 'pendente' ORDER BY enfileirada_em, id LIMIT 1`,
    ),
    query<{ itens: number; desde: Date | null }>(
      pool,
      // The queue's own situation (migration 0800): asked by the intake or by an agent.
      `SELECT count(*)::int AS itens, min(coalesce(aguardando_desde, atualizada_em)) AS desde
         FROM extracoes WHERE situacao = $1`,
      [AGUARDANDO_LOJISTA],
    ),
    query<{ ate: Date | null }>(
      pool,
      `SELECT CASE WHEN pausado_ate > now() THEN pausado_ate END AS ate FROM intake_limites`,
    ),
    validationFailureRate(pool, `now() - interval '24 hours'`),
  ]);
  const jobCounts = { created: 0, retry: 0, active: 0, failed: 0 };
  for (const j of jobs)
    if (j.state in jobCounts) jobCounts[j.state as keyof typeof jobCounts] = j.n;
  const resultados = {
    cobranca_criada: 0,
    aguardando_lojista: 0,
    fila: 0,
    sem_item_aberto: 0,
    erro: 0,
  };
  for (const m of mix) {
    if (m.resultado in resultados) resultados[m.resultado as keyof typeof resultados] = m.n;
  }
  const o = oldest[0];
  return {
    gerado_em: new Date().toISOString(),
    backlog: {
      pendentes: backlog[0]?.pendentes ?? 0,
      em_processamento: backlog[0]?.em_processamento ?? 0,
      jobs: jobCounts,
    },
    mensagens_por_minuto: {
      recebidas: Math.round(((rate[0]?.recebidas ?? 0) / 15) * 100) / 100,
      processadas: Math.round(((rate[0]?.processadas ?? 0) / 15) * 100) / 100,
    },
    resultados_24h: resultados,
    falhas_validacao: failureAlert(vf, limitePct),
    custo_por_hora_usd: Math.round((custo[0]?.usd ?? 0) * 1e6) / 1e6,
    mais_antiga_pendente: o
      ? {
          id: o.id,
          canal: o.canal,
          mensagem_id: o.mensagem_id,
          enfileirada_em: o.enfileirada_em.toISOString(),
          espera_s: Math.round(o.espera_s),
        }
      : null,
    aguardando_lojista: {
      itens: waiting[0]?.itens ?? 0,
      mais_antigo_desde: waiting[0]?.desde?.toISOString() ?? null,
    },
    pausa_ate: pausa[0]?.ate?.toISOString() ?? null,
  };
}

const pct = (x: number) => `${(x * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

/** The human (pt-BR) rendering of the status. */
export function formatFilaStatus(s: FilaStatus): string {
  const r = s.resultados_24h;
  const lines = [
    `Fila de entrada (${new Date(s.gerado_em).toLocaleString('pt-BR')})`,
    `  Pendentes: ${s.backlog.pendentes.toLocaleString('pt-BR')} (${s.backlog.em_processamento} em processamento; jobs: ${s.backlog.jobs.created} novos, ${s.backlog.jobs.retry} para tentar de novo, ${s.backlog.jobs.active} ativos, ${s.backlog.jobs.failed} falharam)`,
    `  Mensagens por minuto (15 min): ${s.mensagens_por_minuto.recebidas.toLocaleString('pt-BR')} recebidas, ${s.mensagens_por_minuto.processadas.toLocaleString('pt-BR')} processadas`,
    `  Resultados (24 h): ${r.cobranca_criada} cobranças criadas, ${r.aguardando_lojista} aguardando lojista, ${r.fila} para a fila de revisão, ${r.sem_item_aberto} respostas sem item aberto, ${r.erro} com erro`,
    `  Falhas de validação (24 h): ${pct(s.falhas_validacao.taxa)} de ${s.falhas_validacao.extracoes} extrações (limite ${pct(s.falhas_validacao.limite)})${s.falhas_validacao.alerta ? ' — ALERTA: acima do limite' : ''}`,
    `  Custo estimado na última hora: US$ ${s.custo_por_hora_usd.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`,
    s.mais_antiga_pendente
      ? `  Mais antiga esperando: ${s.mais_antiga_pendente.canal}/${s.mais_antiga_pendente.mensagem_id} há ${s.mais_antiga_pendente.espera_s.toLocaleString('pt-BR')} s`
      : '  Nenhuma mensagem esperando.',
    `  Aguardando lojista: ${contagem(s.aguardando_lojista.itens, 'item', 'itens')}${s.aguardando_lojista.mais_antigo_desde ? ` (o mais antigo desde ${new Date(s.aguardando_lojista.mais_antigo_desde).toLocaleString('pt-BR')})` : ''}`,
  ];
  if (s.pausa_ate)
    lines.push(
      `  Pausado por limite da API (429) até ${new Date(s.pausa_ate).toLocaleString('pt-BR')}`,
    );
  return lines.join('\n');
}
