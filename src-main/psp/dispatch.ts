/**
 * One step of a charge's dispatch (#36), the body of every `cobrancas` job, of the reconciliation
 * and of `balcao cobrancas reenviar`: the row decides what to do, so a repeated, late or
 * concurrent step is harmless.
 * - `pendente`: claim the row (a lease in the database: a dead worker's expires, another
 *   continues), then `PUT /cob/{txid}` with the txid fixed at creation — a retry after a crash
 *   between the PSP's answer and our commit re-PUTs the same txid; the PSP's 409 is answered by
 *   `GET /cob/{txid}`, accepted when it is the same charge. Transient failures (timeouts,
 *   connection, 429 with Retry-After, 5xx) are retried with backoff by a new job; a refusal goes
 *   to `falhou` with the PSP's reason (a person sees it). No PSP configured: stays `pendente`.
 * - `registrada` / `enviada_ao_lojista`: `GET /cob/{txid}`; `paga` only when the PSP says
 *   CONCLUIDA and the amount received equals the charge's (a difference is recorded and left for
 *   a person); removed at the PSP → `cancelada`; past its due day → `expirada`.
 * Every change of state is one statement: the row and its event (cobrancas_eventos).
 * Who registers and who is asked is an adapter (`adapters.ts`, #36.4): Pix goes to the API Pix
 * (`PUT /cobv/{txid}` when the payer's CPF/CNPJ is known), card and boleto to the company's
 * payment-link service (`PUT /links/{id}` with Idempotency-Key, docs/payment-links.md) — the same
 * states, retries and checks for all.
 */
import { DateTime } from 'luxon';
import { formatBRL } from '@shared/money';
import type pg from 'pg';
import type { Clock } from '../clock';
import { query } from '../db/tx';
import type { Logger } from '../util/logger';
import {
  cobSolicitada as cobSolicitadaDe,
  linkAdapter,
  pixAdapter,
  type ChargeAdapter,
  type ChargeForAdapter,
  type Consulta,
  type Registro,
} from './adapters';
import { PspError, type PixClient } from './client';
import { ESTADOS_ENVIO, type EstadoEnvio } from '@shared/contract/pix';
import type { LinkClient } from './links';

export { ESTADOS_ENVIO, type EstadoEnvio };
export const ESTADOS_ABERTOS: readonly EstadoEnvio[] = [
  'pendente',
  'registrada',
  'enviada_ao_lojista',
];

export const SEM_PSP =
  'Nenhum PSP configurado (BALCAO_PSP_URL): a cobrança aguarda, nada foi enviado.';
export const SEM_LINKS =
  'Nenhum serviço de links configurado (BALCAO_LINK_URL): a cobrança no cartão ou boleto aguarda, nada foi enviado.';
export const SEM_CHAVE =
  'O lojista não tem chave Pix cadastrada: cadastre com "balcao lojistas chave-pix" e reenvie.';

export interface DispatchDeps {
  pool: pg.Pool;
  /** Null when no PSP is configured. */
  client: PixClient | null;
  /** The payment-link service (card, boleto); null or absent when BALCAO_LINK_URL is unset. */
  links?: LinkClient | null;
  clock: Clock;
  zone: string;
  /** How long a worker's claim on a dispatch lasts (a dead worker's then expires). */
  leaseMs: number;
  /** Delay before the next try after a transient failure (attempt 1, 2, …), in seconds. */
  backoffS?: (tentativa: number) => number;
  /** Schedules the next step of a charge (a job starting after `seconds`). */
  schedule?: (cobrancaId: number, seconds: number) => Promise<void>;
  logger?: Logger;
  operador?: string;
}

export type StepResult =
  | 'registrada'
  | 'paga'
  | 'falhou'
  | 'adiada'
  | 'sem_psp'
  | 'ocupada'
  | 'nada'
  | 'aguarda_pagamento'
  | 'valor_divergente'
  | 'cancelada'
  | 'expirada';

export interface EnvioRow {
  cobranca_id: string;
  estado: EstadoEnvio;
  motivo: string | null;
  txid: string;
  tentativas: number;
  copia_e_cola: string | null;
  valor_centavos: string;
  metodo: string;
  vencimento: string;
  descricao: string | null;
  cliente_nome: string;
  chave_pix: string | null;
  tipo?: 'cob' | 'cobv' | 'link' | null;
  parcelas?: number;
  cliente_documento?: string | null;
}

/** Attempts of a transient failure before the charge goes to a person (`falhou`). */
export const MAX_TENTATIVAS = 12;

export const defaultBackoffS = (n: number): number => Math.min(600, 2 ** Math.min(n, 10));

const SISTEMA = 'sistema';

/** Changes a dispatch's state only if it is still in one of `from`, with its event; true if it did. */
export async function transition(
  db: pg.Pool | pg.PoolClient,
  x: {
    id: number;
    de: EstadoEnvio;
    from: readonly EstadoEnvio[];
    para: EstadoEnvio;
    evento: string;
    operador: string;
    set?: Partial<
      Record<
        | 'motivo'
        | 'location'
        | 'copia_e_cola'
        | 'link'
        | 'link_id'
        | 'psp_status'
        | 'tipo'
        | 'pago_centavos'
        | 'proxima_tentativa_em',
        unknown
      >
    >;
    stamp?: 'registrada_em' | 'paga_em';
    detalhes?: Record<string, unknown>;
  },
): Promise<boolean> {
  const values: unknown[] = [x.id, x.para, [...x.from]];
  const sets = Object.entries(x.set ?? {}).map(([k, v]) => `${k} = $${values.push(v)}`);
  if (x.stamp) sets.push(`${x.stamp} = now()`);
  const rows = await query<{ n: string }>(
    db,
    `WITH u AS (
       UPDATE cobrancas_envios SET estado = $2, atualizada_em = now(), em_andamento_ate = NULL
              ${sets.length ? `, ${sets.join(', ')}` : ''}
        WHERE cobranca_id = $1 AND estado = ANY($3::text[]) RETURNING cobranca_id),
     ev AS (
       INSERT INTO cobrancas_eventos (cobranca_id, de, para, evento, operador, detalhes)
       SELECT cobranca_id, $${values.push(x.de)}, $2, $${values.push(x.evento)},
              $${values.push(x.operador)}, $${values.push(JSON.stringify(x.detalhes ?? {}))}::jsonb
         FROM u)
     SELECT count(*) AS n FROM u`,
    values,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** Records an event without a change of state. */
export async function recordEvent(
  db: pg.Pool | pg.PoolClient,
  id: number,
  estado: EstadoEnvio,
  evento: string,
  operador: string,
  detalhes: Record<string, unknown> = {},
): Promise<void> {
  await query(
    db,
    `INSERT INTO cobrancas_eventos (cobranca_id, de, para, evento, operador, detalhes)
     VALUES ($1, $2, $2, $3, $4, $5::jsonb)`,
    [id, estado, evento, operador, JSON.stringify(detalhes)],
  );
}

const ROW_SQL = `SELECT e.cobranca_id, e.estado, e.motivo, e.txid, e.tentativas, e.copia_e_cola,
       e.tipo, c.valor_centavos, c.parcelas, c.metodo,
       to_char(c.vencimento, 'YYYY-MM-DD') AS vencimento, c.descricao,
       c.cliente_nome, c.cliente_documento, m.chave_pix
  FROM cobrancas_envios e JOIN cobrancas c ON c.id = e.cobranca_id
  JOIN merchants m ON m.id = c.merchant_id`;

/**
 * Claims the dispatch for this step: open, not held by a live worker, not waiting for its next
 * try (unless `force`). A `pendente` claim counts an attempt.
 */
async function claim(deps: DispatchDeps, id: number, force: boolean): Promise<EnvioRow | null> {
  const rows = await query<EnvioRow>(
    deps.pool,
    `WITH e AS (
       UPDATE cobrancas_envios
          SET em_andamento_ate = now() + $2::double precision * interval '1 millisecond',
              tentativas = tentativas + CASE WHEN estado = 'pendente' THEN 1 ELSE 0 END
        WHERE cobranca_id = $1 AND estado = ANY($3::text[])
          AND (em_andamento_ate IS NULL OR em_andamento_ate < now())
          AND ($4::boolean OR proxima_tentativa_em IS NULL OR proxima_tentativa_em <= now())
        RETURNING *)
     ${ROW_SQL.replace('FROM cobrancas_envios e', 'FROM e')}`,
    [id, deps.leaseMs, [...ESTADOS_ABERTOS], force],
  );
  return rows[0] ?? null;
}

async function release(deps: DispatchDeps, id: number): Promise<void> {
  await query(
    deps.pool,
    `UPDATE cobrancas_envios SET em_andamento_ate = NULL, atualizada_em = now() WHERE cobranca_id = $1`,
    [id],
  );
}

/** Seconds from now until 23:59:59 of the due day in the business zone (≤ 0 when past). */
export function expiracaoSegundos(vencimento: string, zone: string, now: Date): number {
  const end = DateTime.fromISO(vencimento, { zone }).set({ hour: 23, minute: 59, second: 59 });
  return Math.floor((end.toMillis() - now.getTime()) / 1000);
}

/** The CobSolicitada of a charge (API Pix `PUT /cob/{txid}`). */
export function cobSolicitada(row: EnvioRow, expiracao: number): Record<string, unknown> {
  return cobSolicitadaDe(forAdapter(row), expiracao);
}

function forAdapter(row: EnvioRow): ChargeForAdapter {
  return {
    txid: row.txid,
    tipo: row.tipo ?? null,
    valor_centavos: row.valor_centavos,
    parcelas: row.parcelas ?? 1,
    metodo: row.metodo,
    vencimento: row.vencimento,
    descricao: row.descricao,
    cliente_nome: row.cliente_nome,
    cliente_documento: row.cliente_documento ?? null,
    chave_pix: row.chave_pix,
  };
}

/** The adapter of a charge's method, or null when its provider is not configured. */
export function adapterFor(
  deps: Pick<DispatchDeps, 'client' | 'links'>,
  row: Pick<EnvioRow, 'metodo'>,
): ChargeAdapter | null {
  if (row.metodo === 'pix') return deps.client ? pixAdapter(deps.client) : null;
  return deps.links ? linkAdapter(deps.links) : null;
}

/** One step of the dispatch of charge `id` (see the module's comment). */
export async function syncCharge(
  deps: DispatchDeps,
  id: number,
  opts: { force?: boolean } = {},
): Promise<StepResult> {
  const row = await claim(deps, id, opts.force ?? false);
  if (!row) {
    const st = await query<{ estado: EstadoEnvio; ocupada: boolean }>(
      deps.pool,
      `SELECT estado, coalesce(em_andamento_ate > now(), false) AS ocupada
         FROM cobrancas_envios WHERE cobranca_id = $1`,
      [id],
    );
    return st[0]?.ocupada ? 'ocupada' : 'nada';
  }
  try {
    if (row.estado === 'pendente') {
      const r = await register(deps, id, row);
      if (r !== 'registrada') return r;
      // A payment may have been announced before our commit (a webhook before the PUT's answer).
      const paid = await query(deps.pool, 'SELECT 1 FROM pix_recebidos WHERE txid = $1 LIMIT 1', [
        row.txid,
      ]);
      if (!paid.length) return r;
      const again = await claim(deps, id, true);
      if (!again) return r;
      return await confirm(deps, id, again);
    }
    return await confirm(deps, id, row);
  } finally {
    // A transition already cleared the claim; this covers the paths that change nothing.
    await release(deps, id).catch(() => undefined);
  }
}

async function register(deps: DispatchDeps, id: number, row: EnvioRow): Promise<StepResult> {
  const op = deps.operador ?? SISTEMA;
  const waiting = async (motivo: string): Promise<StepResult> => {
    if (row.motivo !== motivo) {
      await query(deps.pool, 'UPDATE cobrancas_envios SET motivo = $2 WHERE cobranca_id = $1', [
        id,
        motivo,
      ]);
      await recordEvent(deps.pool, id, 'pendente', 'aguardando', op, { motivo });
    }
    return 'sem_psp';
  };
  const adapter = adapterFor(deps, row);
  if (!adapter) return waiting(row.metodo === 'pix' ? SEM_PSP : SEM_LINKS);
  const fail = (motivo: string, detalhes: Record<string, unknown> = {}) =>
    transition(deps.pool, {
      id,
      de: 'pendente',
      from: ['pendente'],
      para: 'falhou',
      evento: 'recusada',
      operador: op,
      set: { motivo },
      detalhes,
    }).then(() => 'falhou' as const);
  if (row.metodo === 'pix' && !row.chave_pix) return fail(SEM_CHAVE);
  const expiracao = expiracaoSegundos(row.vencimento, deps.zone, deps.clock.now());
  if (expiracao <= 0) {
    return fail(
      `O vencimento (${row.vencimento}) já passou: a cobrança não foi enviada ao ${adapter.nome}.`,
    );
  }
  let reg: Registro;
  try {
    reg = await adapter.register(forAdapter(row), { expiracaoS: expiracao });
  } catch (e) {
    if (!(e instanceof PspError)) throw e;
    if (e.kind === 'transitorio') return retryLater(deps, id, row, e);
    return fail(e.message, { status: e.status });
  }
  await transition(deps.pool, {
    id,
    de: 'pendente',
    from: ['pendente'],
    para: 'registrada',
    evento: 'registrada',
    operador: op,
    stamp: 'registrada_em',
    set: {
      motivo: null,
      location: reg.location,
      copia_e_cola: reg.copia_e_cola,
      link: reg.link,
      link_id: reg.link_id,
      psp_status: reg.psp_status,
      tipo: reg.tipo,
      proxima_tentativa_em: null,
    },
    detalhes: { txid: row.txid, tipo: reg.tipo, tentativa: row.tentativas },
  });
  return 'registrada';
}

async function retryLater(
  deps: DispatchDeps,
  id: number,
  row: EnvioRow,
  e: PspError,
): Promise<StepResult> {
  if (row.estado === 'pendente' && row.tentativas >= MAX_TENTATIVAS) {
    // Not retried forever: a person sees it (and may send it again, with the same txid).
    await transition(deps.pool, {
      id,
      de: 'pendente',
      from: ['pendente'],
      para: 'falhou',
      evento: 'tentativas_esgotadas',
      operador: deps.operador ?? SISTEMA,
      set: {
        motivo: `O PSP não aceitou a cobrança em ${row.tentativas} tentativas; a última: ${e.message}`,
      },
      detalhes: { erro: e.message, status: e.status },
    });
    return 'falhou';
  }
  const delay = e.retryAfterS ?? (deps.backoffS ?? defaultBackoffS)(row.tentativas);
  await query(
    deps.pool,
    `UPDATE cobrancas_envios SET proxima_tentativa_em = now() + $2::double precision * interval '1 second',
            motivo = $3, em_andamento_ate = NULL, atualizada_em = now()
      WHERE cobranca_id = $1`,
    [id, delay, `Tentativa ${row.tentativas} falhou: ${e.message} Nova tentativa em ${delay} s.`],
  );
  await recordEvent(deps.pool, id, row.estado, 'tentativa_falhou', deps.operador ?? SISTEMA, {
    erro: e.message,
    status: e.status,
    tentativa: row.tentativas,
    nova_tentativa_em_s: delay,
  });
  await deps.schedule?.(id, delay);
  return 'adiada';
}

async function confirm(deps: DispatchDeps, id: number, row: EnvioRow): Promise<StepResult> {
  const adapter = adapterFor(deps, row);
  if (!adapter) return 'sem_psp';
  const op = deps.operador ?? SISTEMA;
  let st: Consulta;
  try {
    st = await adapter.consult(forAdapter(row));
  } catch (e) {
    if (e instanceof PspError && e.kind === 'transitorio') return 'aguarda_pagamento';
    throw e;
  }
  const esperado = Number(row.valor_centavos);
  if (st.situacao === 'paga') {
    const recebido = st.recebido_centavos;
    if (recebido === esperado) {
      const ok = await transition(deps.pool, {
        id,
        de: row.estado,
        from: ['registrada', 'enviada_ao_lojista'],
        para: 'paga',
        evento: 'paga',
        operador: op,
        stamp: 'paga_em',
        set: {
          pago_centavos: recebido,
          psp_status: row.tipo === 'link' ? 'pago' : 'CONCLUIDA',
          motivo: null,
        },
        detalhes: { txid: row.txid, ...st.detalhes },
      });
      return ok ? 'paga' : 'nada';
    }
    const motivo = `O ${adapter.nome} diz que foi paga, mas o valor recebido (${
      recebido === null ? 'ilegível' : formatBRL(recebido)
    }) difere do cobrado (${formatBRL(esperado)}): uma pessoa precisa verificar.`;
    if (row.motivo !== motivo) {
      await query(
        deps.pool,
        `UPDATE cobrancas_envios SET motivo = $2, psp_status = $3 WHERE cobranca_id = $1`,
        [id, motivo, row.tipo === 'link' ? 'pago' : 'CONCLUIDA'],
      );
      await recordEvent(deps.pool, id, row.estado, 'valor_divergente', op, {
        recebido_centavos: recebido,
        esperado_centavos: esperado,
      });
    }
    return 'valor_divergente';
  }
  if (st.situacao === 'removida') {
    const ok = await transition(deps.pool, {
      id,
      de: row.estado,
      from: ['registrada', 'enviada_ao_lojista'],
      para: 'cancelada',
      evento: 'removida_no_psp',
      operador: op,
      set: {
        psp_status: st.psp_status,
        motivo: `Removida no ${adapter.nome} (${st.psp_status}).`,
      },
    });
    return ok ? 'cancelada' : 'nada';
  }
  if (expiracaoSegundos(row.vencimento, deps.zone, deps.clock.now()) <= 0) {
    const ok = await transition(deps.pool, {
      id,
      de: row.estado,
      from: ['registrada', 'enviada_ao_lojista'],
      para: 'expirada',
      evento: 'expirada',
      operador: op,
      set: {
        psp_status: st.psp_status,
        motivo: `Venceu sem pagamento confirmado pelo ${adapter.nome}.`,
      },
    });
    return ok ? 'expirada' : 'nada';
  }
  return 'aguarda_pagamento';
}

/**
 * The reconciliation: every open charge whose state has not changed for `olderThanS` seconds
 * gets a step (a lost webhook never leaves a paid charge unpaid; a dead worker's dispatch is
 * continued). Returns how many steps ended in each result.
 */
export async function reconcile(
  deps: DispatchDeps,
  opts: {
    olderThanS: number;
    /** Bound for `pendente` (default `olderThanS`): a dead worker's claim expires first. */
    pendenteS?: number;
    limit?: number;
    force?: boolean;
  },
): Promise<Partial<Record<StepResult, number>>> {
  if (!deps.client && !deps.links) return {};
  const ids = await query<{ cobranca_id: string }>(
    deps.pool,
    `SELECT cobranca_id FROM cobrancas_envios
      WHERE estado = ANY($1::text[])
        AND atualizada_em <= now() - (CASE WHEN estado = 'pendente' THEN $5::double precision ELSE $2::double precision END)
                                     * interval '1 second'
        AND (em_andamento_ate IS NULL OR em_andamento_ate < now())
        AND ($4::boolean OR proxima_tentativa_em IS NULL OR proxima_tentativa_em <= now())
      ORDER BY atualizada_em LIMIT $3::int`,
    [
      [...ESTADOS_ABERTOS],
      opts.olderThanS,
      opts.limit ?? 500,
      opts.force ?? false,
      opts.pendenteS ?? opts.olderThanS,
    ],
  );
  const out: Partial<Record<StepResult, number>> = {};
  for (const r of ids) {
    let res: StepResult;
    try {
      res = await syncCharge(deps, Number(r.cobranca_id), { force: opts.force ?? false });
    } catch (err) {
      deps.logger?.warn({ err, cobranca: r.cobranca_id }, 'psp: reconciliação falhou');
      continue;
    }
    out[res] = (out[res] ?? 0) + 1;
  }
  return out;
}
