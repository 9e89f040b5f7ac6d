/**
 * The simulated agents of `balcao bench-fila`: each one a desktop with its own login, its own pool
 * (as a signed-in desktop opens one, through PgBouncer when there is one), the live queue that
 * desktop runs (intake/live-source.ts) and the queue's channels as plain methods (the same
 * functions the IPC handlers call). An agent looks at the list, claims the first free item, opens
 * it, thinks, edits, thinks, and confirms, discards or asks the merchant; every live event makes
 * its list reload, as the screen does (useQueue). Each agent keeps its own books — what it did,
 * when it held what, when it heard of each item — for the checks in fila.ts.
 */
import type { DadosCobranca } from '@shared/extraction-types';
import type { QueueItem } from '@shared/contract/review';
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
  /** Claims refused because someone else had the item (the list was a moment old). */
  disputas: number;
  erros: string[];
  reconexoes: number;
  live: QueueListener;
  pool: pg.Pool;
  /** Runs until `ate` (performance.now), then gives back what it holds. */
  run(ate: number): Promise<void>;
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

async function timed<T>(into: number[], fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const r = await fn();
  into.push(performance.now() - t);
  return r;
}

const LIST = { view: 'aberta', sort: 'antigas', limit: 50 } as const;

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
  let items: QueueItem[] = [];
  let listing: Promise<void> | null = null;
  let dirty = false;
  let stopped = false;

  const reload = (): Promise<void> => {
    if (listing) {
      dirty = true;
      return listing;
    }
    listing = (async () => {
      do {
        dirty = false;
        try {
          const page = await timed(tempos.listar, () => q.list(LIST));
          items = page.items;
        } catch (e) {
          erros.push(`listar: ${e instanceof Error ? e.message : String(e)}`);
        }
      } while (dirty && !stopped);
    })().finally(() => {
      listing = null;
    });
    return listing;
  };

  const onChange = (c: QueueChange) => {
    const now = performance.now();
    if (c.reconectado) reconexoes++;
    for (const id of c.ids) {
      let l = ouviu.get(id);
      if (!l) ouviu.set(id, (l = []));
      l.push(now);
    }
    if (!stopped) void reload();
  };
  const live = startLiveQueue({
    source: o.live,
    pool,
    onChange,
    ...(o.feedIntervalMs !== undefined ? { feedIntervalMs: o.feedIntervalMs } : {}),
  });

  const think = () => sleep(o.pensarMinMs + rand() * (o.pensarMaxMs - o.pensarMinMs));

  /** Claims the first free item of the list it has; null when none could be had. */
  const claimNext = async (): Promise<{ item: QueueItem; token: string; de: number } | null> => {
    if (!items.length) await reload();
    const skip = new Set<number>();
    for (let tries = 0; tries < 8; tries++) {
      const item = items.find((i) => i.emAnalisePor === null && !skip.has(i.id));
      if (!item) return null;
      const inicio = performance.now();
      const r = await timed(tempos.assumir, () => q.claim(item.id));
      const fim = performance.now();
      if (r.claimed) {
        feito.push({ agente: o.login, id: item.id, acao: 'assumiu', inicio, fim });
        return { item, token: r.token, de: fim };
      }
      disputas++;
      skip.add(item.id);
    }
    return null;
  };

  const work = async (): Promise<void> => {
    const got = await claimNext();
    if (!got) {
      await sleep(500);
      return;
    }
    const { item, token, de } = got;
    const record = (acao: AgentRecord['acao'], inicio: number) => {
      const fim = performance.now();
      feito.push({ agente: o.login, id: item.id, acao, inicio, fim });
      return fim;
    };
    let ate = de;
    try {
      const detail = await timed(tempos.abrir, () => q.get(item.id));
      await think();
      const base = detail.dadosRevisados ?? detail.dados;
      const roll = rand();
      if (detail.status === 'falhou' || !base || roll < 0.1) {
        const inicio = performance.now();
        await timed(tempos.descartar, () =>
          q.discard({
            id: item.id,
            token,
            motivo: detail.status === 'falhou' ? 'outro' : 'duplicada',
            detalhe: 'bench-fila',
          }),
        );
        ate = record('descartou', inicio);
        return;
      }
      if (detail.status === 'incompleto' && roll < 0.5) {
        const inicio = performance.now();
        await timed(tempos.perguntar, () => q.askMerchant({ id: item.id, token }));
        ate = record('perguntou', inicio);
        // The item now waits for the merchant: back to the queue.
        await q.release(item.id, token);
        return;
      }
      const dados = completed({ ...base, descricao: `revisado por ${o.login}` }, q.today());
      let inicio = performance.now();
      await timed(tempos.salvar, () => q.save({ id: item.id, token, dados }));
      record('rascunho', inicio);
      await think();
      inicio = performance.now();
      await timed(tempos.confirmar, () =>
        q.confirm({
          id: item.id,
          token,
          dados,
          vencimentoConfirmado: dados.vencimento ?? undefined,
        }),
      );
      ate = record('confirmou', inicio);
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
    async run(ate) {
      await reload();
      while (performance.now() < ate) {
        await work();
        await think();
      }
    },
    async close() {
      stopped = true;
      await live.close();
      await listing;
      await pool.end();
    },
  };
}
