/**
 * Retention (#38.3): merchant texts, the model attempts' bodies, outgoing texts and the sales
 * questions older than BALCAO_RETENCAO_DIAS (default 180) become a fixed marker. The work is
 * done by `balcao_lgpd_retencao` (migration 0990) in batches of `lote` rows, each its own
 * transaction: a pass killed midway leaves every row either as it was or fully anonymised, and
 * the next pass goes on from there (`anonimizada_em` marks what is done). Money, dates, states,
 * aggregates and the audit are never touched.
 */
import type pg from 'pg';
import { MARCADOR_RETENCAO } from '@shared/lgpd';
import type { Clock } from '../clock';

/** The tables a pass goes through, in this order. */
export const TABELAS_RETENCAO = [
  'mensagens',
  'intake_tentativas',
  'extracoes',
  'extracao_tentativas',
  'mensagens_saida',
  'consultas_vendas',
  'consultas_livres',
] as const;
export type TabelaRetencao = (typeof TABELAS_RETENCAO)[number];

/** What each table holds that a pass anonymises (pt-BR, for the CLI). */
export const DESCRICAO_TABELA: Record<TabelaRetencao, string> = {
  mensagens: 'mensagens dos lojistas (texto)',
  intake_tentativas: 'tentativas do modelo na entrada (corpo)',
  extracoes: 'pedidos de cobrança (texto do lojista)',
  extracao_tentativas: 'tentativas do modelo nas extrações (corpo)',
  mensagens_saida: 'mensagens enviadas aos lojistas (texto)',
  consultas_vendas: 'perguntas de vendas (texto)',
  consultas_livres: 'perguntas em SQL livre (texto)',
};

export const RETENCAO_DIAS_PADRAO = 180;
export const LOTE_PADRAO = 500;

/** BALCAO_RETENCAO_DIAS: whole days, 1–36500; default 180. Anything else is refused in pt-BR. */
export function retentionDays(env: NodeJS.ProcessEnv): number {
  const raw = env.BALCAO_RETENCAO_DIAS?.trim();
  if (!raw) return RETENCAO_DIAS_PADRAO;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > 36500) {
    throw new Error(
      `BALCAO_RETENCAO_DIAS deve ser um número inteiro de dias entre 1 e 36500; recebido «${raw}».`,
    );
  }
  return n;
}

/** The bound: rows older than this are anonymised. */
export function retentionCutoff(clock: Clock, dias: number): Date {
  return new Date(clock.now().getTime() - dias * 86_400_000);
}

export type RetentionCounts = Record<TabelaRetencao, number>;

const emptyCounts = (): RetentionCounts =>
  Object.fromEntries(TABELAS_RETENCAO.map((t) => [t, 0])) as RetentionCounts;

/** How many rows of each table a pass would anonymise now (nothing changes). */
export async function simulateRetention(pool: pg.Pool, antes: Date): Promise<RetentionCounts> {
  const counts = emptyCounts();
  for (const t of TABELAS_RETENCAO) {
    const r = await pool.query<{ n: string }>(
      'SELECT balcao_lgpd_retencao($1, $2, NULL, $3) AS n',
      [t, antes, MARCADOR_RETENCAO],
    );
    counts[t] = Number(r.rows[0]?.n ?? 0);
  }
  return counts;
}

export interface RetentionRunOptions {
  antes: Date;
  /** Rows per transaction (1–10000; default 500). */
  lote?: number;
  signal?: AbortSignal;
  /** After each committed batch (tests, progress). */
  onBatch?: (tabela: TabelaRetencao, linhas: number) => void | Promise<void>;
}

/** One pass: every table, batch after batch, until nothing older than `antes` is left. */
export async function runRetention(
  pool: pg.Pool,
  opts: RetentionRunOptions,
): Promise<RetentionCounts> {
  const lote = Math.max(1, Math.min(opts.lote ?? LOTE_PADRAO, 10_000));
  const counts = emptyCounts();
  for (const t of TABELAS_RETENCAO) {
    for (;;) {
      if (opts.signal?.aborted) return counts;
      const r = await pool.query<{ n: string }>(
        'SELECT balcao_lgpd_retencao($1, $2, $3, $4) AS n',
        [t, opts.antes, lote, MARCADOR_RETENCAO],
      );
      const n = Number(r.rows[0]?.n ?? 0);
      counts[t] += n;
      if (n > 0) await opts.onBatch?.(t, n);
      if (n < lote) break;
    }
  }
  return counts;
}

export const totalOf = (c: RetentionCounts): number =>
  TABELAS_RETENCAO.reduce((s, t) => s + c[t], 0);

/** The counts in pt-BR, one table a line. */
export function formatRetention(c: RetentionCounts, simulada: boolean, dias: number): string {
  const total = totalOf(c);
  const registros = total === 1 ? '1 registro' : `${total} registros`;
  const head = !total
    ? `Retenção de ${dias} dias: nada a anonimizar.`
    : simulada
      ? `Retenção de ${dias} dias: ${registros} ${total === 1 ? 'seria anonimizado' : 'seriam anonimizados'} (nada foi alterado):`
      : `Retenção de ${dias} dias: ${registros} ${total === 1 ? 'anonimizado' : 'anonimizados'}:`;
  if (!total) return head;
  const lines = TABELAS_RETENCAO.filter((t) => c[t] > 0).map(
    (t) => `  ${String(c[t]).padStart(7)}  ${t} — ${DESCRICAO_TABELA[t]}`,
  );
  return [head, ...lines].join('\n');
}
