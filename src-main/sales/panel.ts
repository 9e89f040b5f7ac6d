/**
 * The sales panel service: what the IPC handlers of the Vendas page do, per window.
 * The merchant of every query is the one this window chose (held in `SalesSessions`, keyed by
 * `Caller.sessionId`); nothing the renderer sends with a query names a merchant.
 */
import type {
  MerchantSummary,
  ProgressEvent,
  SalesAnswer,
  SalesAskResult,
  SalesSessionView,
} from '@shared/contract/sales';
import { AppError } from '@shared/errors';
import type { ConsultaVendas, LinhaVenda, ResultadoVendas } from '@shared/sales-dsl';
import type { Caller } from '../caller';
import { NO_API_KEY_MESSAGE } from '../llm';
import {
  answerSalesDsl,
  askSales,
  requireMerchant,
  todayLocal,
  type SalesEngineDeps,
  type SalesProgress,
} from './engine';
import { inLogSession } from './log';
import { SalesSessions } from './session';

export interface SalesPanelService {
  sessions: SalesSessions;
  view(ctx: Caller): SalesSessionView;
  selectMerchant(ctx: Caller, merchantId: number): Promise<SalesSessionView>;
  run(ctx: Caller, dsl: unknown): Promise<SalesAnswer>;
  ask(ctx: Caller, req: { pergunta: string; requestId: string }): Promise<SalesAskResult>;
  cancel(ctx: Caller, requestId: string): { cancelado: boolean };
}

/**
 * The totals row of a grouped answer: the whole period's value. For sums and counts over every
 * group it is their sum; for an average, or when a top-N cut the groups, it is one more query.
 */
export async function periodTotal(
  deps: SalesEngineDeps,
  merchantId: number,
  consulta: ConsultaVendas,
  linhas: LinhaVenda[],
): Promise<number | null> {
  if (consulta.agrupar_por === 'nenhum') return null;
  if (consulta.metrica !== 'ticket_medio' && consulta.limite === null) {
    return linhas.reduce((s, l) => s + (l.valor ?? 0), 0);
  }
  // Through the engine like any query (validated and logged), over the same resolved dates.
  const r = await answerSalesDsl(deps, {
    merchantId,
    dsl: {
      metrica: consulta.metrica,
      data_inicio: consulta.data_inicio,
      data_fim: consulta.data_fim,
      ...(consulta.modalidades.length ? { modalidades: consulta.modalidades } : {}),
    },
  });
  if (r.tipo !== 'resposta') return null;
  return r.linhas[0]?.valor ?? null;
}

/** What the panel shows while the engine works ("corrigindo a consulta — tentativa 2 de 3"). */
export function progressText(p: SalesProgress): Omit<ProgressEvent, 'requestId'> {
  const counts =
    p.tentativa !== undefined && p.maxTentativas !== undefined
      ? { tentativa: p.tentativa, maxTentativas: p.maxTentativas }
      : {};
  if (p.tentativa !== undefined && p.tentativa > 1) {
    const de = p.maxTentativas !== undefined ? ` de ${p.maxTentativas}` : '';
    return { etapa: `corrigindo a consulta — tentativa ${p.tentativa}${de}`, ...counts };
  }
  const etapa = p.etapa.endsWith('…') ? p.etapa : `${p.etapa}…`;
  return { etapa, ...counts };
}

export function createSalesPanel(deps: SalesEngineDeps): SalesPanelService {
  const sessions = new SalesSessions();

  /** Windows whose closing we listen to (once each). */
  const tracked = new Set<string>();
  /** First call of a window: forget its state when the window goes away. */
  const track = (ctx: Caller) => {
    if (!ctx.signal || tracked.has(ctx.sessionId)) return;
    tracked.add(ctx.sessionId);
    ctx.signal.addEventListener(
      'abort',
      () => {
        sessions.dispose(ctx.sessionId);
        tracked.delete(ctx.sessionId);
      },
      { once: true },
    );
  };

  const view = (ctx: Caller): SalesSessionView => {
    const s = deps.settings.get();
    return {
      merchant: sessions.merchant(ctx.sessionId),
      history: sessions.history(ctx.sessionId),
      apiKeyConfigured: Boolean(deps.settings.getApiKey()?.trim()),
      freeSqlEnabled: s.freeSqlEnabled,
      hoje: todayLocal(deps),
      timeZone: s.timeZone,
    };
  };

  const toAnswer = async (
    r: Extract<ResultadoVendas, { tipo: 'resposta' }>,
    merchant: MerchantSummary,
    extra: { origem: SalesAnswer['origem']; pergunta: string | null; startedAt: number },
  ): Promise<SalesAnswer> => ({
    tipo: 'resposta',
    origem: extra.origem,
    pergunta: extra.pergunta,
    merchant,
    consulta: r.consulta,
    linhas: r.linhas,
    total: await periodTotal(deps, merchant.id, r.consulta, r.linhas),
    interpretacao: r.interpretacao,
    resposta: r.resposta,
    duracaoMs: Math.round(performance.now() - extra.startedAt),
    ...(r.frescor ? { frescor: r.frescor } : {}),
  });

  return {
    sessions,
    view(ctx) {
      track(ctx);
      return view(ctx);
    },

    async selectMerchant(ctx, merchantId) {
      track(ctx);
      const m = await requireMerchant(deps, merchantId);
      sessions.selectMerchant(ctx.sessionId, m);
      return view(ctx);
    },

    async run(ctx, dsl) {
      track(ctx);
      const startedAt = performance.now();
      const merchant = sessions.requireMerchant(ctx.sessionId);
      // Logged with the window's session: the report pairs a chip edit with the answer before it.
      const r = await inLogSession(ctx.sessionId, () =>
        answerSalesDsl(deps, { merchantId: merchant.id, dsl }),
      );
      if (r.tipo !== 'resposta') {
        throw new AppError('entrada_invalida', 'Os filtros não formam uma consulta.');
      }
      return toAnswer(r, merchant, { origem: 'consulta', pergunta: null, startedAt });
    },

    async ask(ctx, { pergunta, requestId }) {
      track(ctx);
      const startedAt = performance.now();
      const merchant = sessions.requireMerchant(ctx.sessionId);
      if (!deps.settings.getApiKey()?.trim()) {
        throw new AppError('sem_chave_api', NO_API_KEY_MESSAGE);
      }
      sessions.addHistory(ctx.sessionId, pergunta);
      const handle = sessions.begin(ctx.sessionId, requestId, ctx.signal);
      const emit = (p: SalesProgress) => {
        if (!handle.signal.aborted) ctx.emit('sales/progress', { requestId, ...progressText(p) });
      };
      try {
        const r = await inLogSession(ctx.sessionId, () =>
          askSales(deps, {
            merchantId: merchant.id,
            pergunta,
            signal: handle.signal,
            onProgress: emit,
          }),
        );
        // Cancelled while the query ran: the answer is not wanted any more.
        if (handle.signal.aborted) throw new AppError('cancelado', 'Pergunta cancelada.');
        if (r.tipo === 'esclarecimento') {
          return { tipo: 'esclarecimento', pergunta, esclarecimento: r.esclarecimento, merchant };
        }
        if (r.tipo === 'livre') {
          // Free-SQL fallback (only when enabled): rows as the guard returned them, SQL shown.
          return {
            tipo: 'livre',
            pergunta,
            merchant,
            sql: r.sql,
            colunas: r.colunas,
            linhas: r.linhas,
            resposta: r.resposta,
            truncado: r.truncado,
            duracaoMs: Math.round(performance.now() - startedAt),
            ...(r.frescor ? { frescor: r.frescor } : {}),
          };
        }
        return await toAnswer(r, merchant, { origem: 'pergunta', pergunta, startedAt });
      } catch (e) {
        if (handle.signal.aborted) throw new AppError('cancelado', 'Pergunta cancelada.');
        throw e;
      } finally {
        handle.end();
      }
    },

    cancel(ctx, requestId) {
      return { cancelado: sessions.cancel(ctx.sessionId, requestId) };
    },
  };
}
