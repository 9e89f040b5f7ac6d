/**
 * The simulated agents of `balcao bench-fila`: each one a desktop with its own login, its own pool
 * (as a signed-in desktop opens one, through PgBouncer when there is one), the live queue that
 * desktop runs (intake/live-source.ts) and the queue's channels as plain methods (the same
 * functions the IPC handlers call). An agent presses "Próximo pedido" (the server claims the next
 * free item for it, review/claimNext), opens it, thinks, edits, thinks, and confirms, discards or
 * asks the merchant; then goes back to the list half the time (Esc), or on with J. While the list
 * is on screen every live event makes it reload, as the screen does (useQueue); while an item is
 * open the list is not on screen (QueuePage shows one or the other). Each agent keeps its own
 * books — what it did, when it held what, when it heard of each item — for the checks in fila.ts.
 */
import type { DadosCobranca } from '@shared/extraction-types';
import type pg from 'pg';
import { systemClock } from '../clock';
import { createPool } from '../db/pool';
import { mulberry32 } from '../db/prng';
import type { QueueChange, QueueListener } from '../intake/live';
import { startLiveQueue, type LiveSource } from '../intake/live-source';
import { settingsFor } from '../people/session';
import { createQueueService, type QueueService } from '../queue/service';
import { extractionChargeRules } from '../queue/rules';
import type { SettingsSource } from '../settings/types';

export type AgentAction = 'confirmou' | 'descartou' | 'perguntou';

/** One thing an agent did that the database must show exactly once. */
export interface AgentRecord {
  agente: string;
  id: number;
  acao: AgentAction | 'assumiu' | 'rascunho';
  inicio: number;
  fim: number;
  /**
   * The call failed on the way (the connection dropped, the server did not answer in time): it
   * may or may not have committed. The books accept it once or not at all.
   */
  incerta?: true;
}

/** An interval in which an agent held an item (from its claim to its action's answer). */
export interface HeldSpan {
  agente: string;
  id: number;
  de: number;
  ate: number;
}

export interface AgentTimings {
  assumir: number[];
  confirmar: number[];
  listar: number[];
  abrir: number[];
  salvar: number[];
  descartar: number[];
  perguntar: number[];
}

export interface Agent {
  login: string;
  feito: AgentRecord[];
  seguros: HeldSpan[];
  tempos: AgentTimings;
  /** Item id → every moment (performance.now) a live event named it. */
  ouviu: Map<number, number[]>;
  /** "Próximo pedido" that found no free item (everything open was held or being taken). */
  disputas: number;
  erros: string[];
  reconexoes: number;
  live: QueueListener;
  pool: pg.Pool;
  /**
   * Runs until `ate` (performance.now), then gives back what it holds. Calls that start before
   * `cronometrarDe` are not timed: each desktop's connection is new, and its first statements pay
   * for what a long-lived server connection pays once (plans, the triggers' compilation). The
   * books cover the whole run.
   */
  run(ate: number, cronometrarDe?: number): Promise<void>;
  close(): Promise<void>;
}

export interface AgentOptions {
  login: string;
  url: string;
  live: LiveSource;
  base: SettingsSource;
  pensarMinMs: number;
  pensarMaxMs: number;
  seed: number;
  /** Live reads' pause (the change log); default the desktop's. */
  feedIntervalMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The screen's first page: the open items in its default order, the nearest deadline first. */
const LIST = { view: 'aberta', sort: 'prazo', limit: 50 } as const;

/** The screen's list reloads at most this often while changes keep coming (useQueue). */
const RELOAD_MIN_MS = 1000;

/** What an agent fills in for what the merchant did not say. */
function completed(d: DadosCobranca, hoje: string): DadosCobranca {
  const [y, m, dd] = hoje.split('-').map(Number) as [number, number, number];
  const due = new Date(Date.UTC(y, m - 1, dd + 10)).toISOString().slice(0, 10);
  return {
    ...d,
    valor_centavos: d.valor_centavos ?? 15_000,
    parcelas: d.parcelas ?? 1,
    metodo: d.metodo ?? 'pix',
    cliente_nome: d.cliente_nome ?? 'Cliente do bench',
    vencimento: d.vencimento ?? due,
    faltando: [],
  };
}

export function startAgent(o: AgentOptions): Agent {
  const pool = createPool(o.url, { max: 4, applicationName: 'balcao-pessoa' });
  const settings = settingsFor(o.base, o.login);
  const q: QueueService = createQueueService({
    pool,
    clock: systemClock,
    settings,
    rules: extractionChargeRules,
    rerunner: null,
  });
  const rand = mulberry32(o.seed);
  let from = -Infinity;
  /** Times a call, failed or not (a claim that waited 3 s for a lock took 3 s). */
  const timed = async <T>(into: number[], fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      if (t >= from) into.push(performance.now() - t);
    }
  };
  const tempos: AgentTimings = {
    assumir: [],
    confirmar: [],
    listar: [],
    abrir: [],
    salvar: [],
    descartar: [],
    perguntar: [],
  };
  const feito: AgentRecord[] = [];
  const seguros: HeldSpan[] = [];
  const ouviu = new Map<number, number[]>();
  const erros: string[] = [];
  let disputas = 0;
  let reconexoes = 0;
  let listing: Promise<void> | null = null;
  let stopped = false;

  /** One read of the list (the screen's first page with its counts). */
  const list = async (): Promise<void> => {
    try {
      await timed(tempos.listar, () => q.list(LIST));
    } catch (e) {
      erros.push(`listar: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  // A reload asked for while one runs runs after it (the screen would send it at once).
  let again = false;
  const reload = (): Promise<void> => {
    if (listing) {
      again = true;
      return listing;
    }
    listing = (async () => {
      do {
        again = false;
        await list();
      } while (again && !stopped);
    })().finally(() => (listing = null));
    return listing;
  };
  // What the screen does with live events (src-renderer/review/live.ts, useQueue): the first
  // change reloads the list at once; those within the next second reload it once, when it ends.
  let last = -Infinity;
  let trailing: NodeJS.Timeout | undefined;
  // The list is on screen only between items (QueuePage shows the list or the item): an agent
  // who goes from item to item with J never reloads it.
  let naLista = true;
  const onLive = () => {
    if (stopped || !naLista) return;
    const wait = last + RELOAD_MIN_MS - performance.now();
    if (wait <= 0 && trailing === undefined) {
      last = performance.now();
      void reload();
      return;
    }
    trailing ??= setTimeout(
      () => {
        trailing = undefined;
        if (stopped || !naLista) return;
        last = performance.now();
        void reload();
      },
      Math.max(0, wait),
    );
  };

  const onChange = (c: QueueChange) => {
    const now = performance.now();
    if (c.reconectado) reconexoes++;
    for (const id of c.ids) {
      let l = ouviu.get(id);
      if (!l) ouviu.set(id, (l = []));
      l.push(now);
    }
    onLive();
  };
  const live = startLiveQueue({
    source: o.live,
    pool,
    onChange,
    ...(o.feedIntervalMs !== undefined ? { feedIntervalMs: o.feedIntervalMs } : {}),
  });

  const think = () => sleep(o.pensarMinMs + rand() * (o.pensarMaxMs - o.pensarMinMs));

  /**
   * "Próximo pedido" (J), as the screen does it: the server claims the next free item for this
   * agent (review/claimNext). Null when there is none, or the call failed.
   */
  const claimNext = async (): Promise<{ id: number; token: string; de: number } | null> => {
    const inicio = performance.now();
    let r: Awaited<ReturnType<QueueService['claimNext']>>;
    try {
      r = await timed(tempos.assumir, () => q.claimNext());
    } catch (e) {
      erros.push(`assumir: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
    const fim = performance.now();
    if (!r.claimed) {
      disputas++;
      return null;
    }
    feito.push({ agente: o.login, id: r.id, acao: 'assumiu', inicio, fim });
    return { id: r.id, token: r.token, de: fim };
  };

  const work = async (): Promise<void> => {
    const got = await claimNext();
    if (!got) {
      await sleep(500);
      return;
    }
    naLista = false;
    const { token, de } = got;
    const item = { id: got.id };
    const record = (acao: AgentRecord['acao'], inicio: number, incerta = false) => {
      const fim = performance.now();
      feito.push({
        agente: o.login,
        id: item.id,
        acao,
        inicio,
        fim,
        ...(incerta ? { incerta } : {}),
      });
      return fim;
    };
    /** Runs an action, timed; one whose answer was lost is recorded as uncertain. */
    const act = async (acao: AgentRecord['acao'], into: number[], fn: () => Promise<unknown>) => {
      const inicio = performance.now();
      try {
        await timed(into, fn);
      } catch (e) {
        if ((e as { code?: unknown }).code === 'banco_indisponivel') record(acao, inicio, true);
        throw e;
      }
      return record(acao, inicio);
    };
    let ate = de;
    try {
      const detail = await timed(tempos.abrir, () => q.get(item.id));
      await think();
      const base = detail.dadosRevisados ?? detail.dados;
      const roll = rand();
      if (detail.status === 'falhou' || !base || roll < 0.1) {
        ate = await act('descartou', tempos.descartar, () =>
          q.discard({
            id: item.id,
            token,
            motivo: detail.status === 'falhou' ? 'outro' : 'duplicada',
            detalhe: 'bench-fila',
          }),
        );
        return;
      }
      if (detail.status === 'incompleto' && roll < 0.5) {
        ate = await act('perguntou', tempos.perguntar, () => q.askMerchant({ id: item.id, token }));
        // The item now waits for the merchant: back to the queue.
        await q.release(item.id, token);
        return;
      }
      const dados = completed({ ...base, descricao: `revisado por ${o.login}` }, q.today());
      await act('rascunho', tempos.salvar, () => q.save({ id: item.id, token, dados }));
      await think();
      ate = await act('confirmou', tempos.confirmar, () =>
        q.confirm({
          id: item.id,
          token,
          dados,
          vencimentoConfirmado: dados.vencimento ?? undefined,
        }),
      );
    } catch (e) {
      erros.push(`item ${item.id}: ${e instanceof Error ? e.message : String(e)}`);
      ate = performance.now();
      await q.release(item.id, token).catch(() => undefined);
    } finally {
      seguros.push({ agente: o.login, id: item.id, de, ate });
    }
  };

  return {
    login: o.login,
    feito,
    seguros,
    tempos,
    ouviu,
    get disputas() {
      return disputas;
    },
    erros,
    get reconexoes() {
      return reconexoes;
    },
    live,
    pool,
    async run(ate, cronometrarDe = -Infinity) {
      from = cronometrarDe;
      // People do not all press J in the same millisecond: each one starts after a think of
      // their own (the first minute of a shift), not as a herd.
      await think();
      await reload();
      while (performance.now() < ate) {
        try {
          await work();
        } catch (e) {
          erros.push(`agente: ${e instanceof Error ? e.message : String(e)}`);
        }
        // After an item, half the time back to the list (Esc: it loads, then follows the live
        // events), otherwise straight on with J from the item's outcome.
        if (!naLista && rand() < 0.5) {
          naLista = true;
          last = performance.now();
          void reload();
        }
        await think();
      }
    },
    async close() {
      stopped = true;
      clearTimeout(trailing);
      await live.close();
      await listing;
      await pool.end();
    },
  };
}
