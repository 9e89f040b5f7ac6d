/**
 * The sales panel service: what the Vendas page's channels (`sales/channels.ts`) call, per window.
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
import type { RespostaVendas } from '@shared/sales-dsl';
import type { Caller } from '../caller';
import { WindowRegistry } from '../windows';
import { NO_API_KEY_MESSAGE } from '../llm';
import { answerSalesDsl, todayLocal } from './answer';
import { askSales, type SalesProgress } from './ask';
import type { SalesDeps } from './deps';
import { toFreeAnswer } from './free-sql/fallback';
import { requireMerchant } from './merchants';
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

/** What the panel shows while the question is answered ("corrigindo a consulta — tentativa 2 de 3"). */
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

export function createSalesPanel(
  deps: SalesDeps,
  windows: WindowRegistry = new WindowRegistry(),
): SalesPanelService {
  const sessions = new SalesSessions();

  /** First call of a window: forget its state when the window goes away. */
  const track = (ctx: Caller) =>
    windows.onClose(ctx, 'sales/panel', () => sessions.dispose(ctx.sessionId));

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

  const toAnswer = (
    r: RespostaVendas,
    merchant: MerchantSummary,
    extra: { origem: SalesAnswer['origem']; pergunta: string | null; startedAt: number },
  ): SalesAnswer => ({
    ...r,
    origem: extra.origem,
    pergunta: extra.pergunta,
    merchant,
    duracaoMs: Math.round(performance.now() - extra.startedAt),
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
        answerSalesDsl(deps, { merchantId: merchant.id, dsl, merchantChosen: true }),
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
            merchantChosen: true,
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
          return toFreeAnswer(r, { merchant, pergunta, startedAt });
        }
        return toAnswer(r, merchant, { origem: 'pergunta', pergunta, startedAt });
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
