/**
 * What people do with charges and merchants' Pix keys (#36; the CLI's `cobrancas` and
 * `lojistas`): list and show a charge's dispatch with its history, send again, cancel at the PSP
 * (audited), reconcile now, and set a merchant's Pix key (validated, audited).
 */
import { AppError } from '@shared/errors';
import { validarChavePix, type TipoChavePix } from '@shared/pix';
import type pg from 'pg';
import { query, withTransaction } from '../db/tx';
import { writeAudit } from '../queue/audit';
import { PspError, type PixClient } from './client';
import {
  ESTADOS_ABERTOS,
  syncCharge,
  adapterFor,
  transition,
  type DispatchDeps,
  type EstadoEnvio,
  type StepResult,
} from './dispatch';

export interface EnvioItem {
  id: number;
  merchant_id: number;
  lojista: string;
  metodo: string;
  valor_centavos: number;
  vencimento: string;
  cliente_nome: string;
  estado: EstadoEnvio;
  motivo: string | null;
  txid: string;
  copia_e_cola: string | null;
  location: string | null;
  link: string | null;
  tentativas: number;
  criada_em: string;
  atualizada_em: string;
  registrada_em: string | null;
  paga_em: string | null;
}

export interface EnvioEvento {
  ocorrido_em: string;
  de: string | null;
  para: string | null;
  evento: string;
  operador: string;
  detalhes: Record<string, unknown>;
}

const ITEM_SQL = `SELECT c.id::int AS id, c.merchant_id::int AS merchant_id, m.nome AS lojista,
       c.metodo, c.valor_centavos::int AS valor_centavos,
       to_char(c.vencimento, 'YYYY-MM-DD') AS vencimento, c.cliente_nome, e.estado, e.motivo,
       e.txid, e.copia_e_cola, e.location, e.link, e.tentativas,
       to_char(e.criada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS criada_em,
       to_char(e.atualizada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS atualizada_em,
       to_char(e.registrada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS registrada_em,
       to_char(e.paga_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS paga_em
  FROM cobrancas_envios e JOIN cobrancas c ON c.id = e.cobranca_id
  JOIN merchants m ON m.id = c.merchant_id`;

export async function listEnvios(
  pool: pg.Pool,
  f: { estado?: EstadoEnvio | undefined; merchantId?: number | undefined; limite: number },
): Promise<EnvioItem[]> {
  return query<EnvioItem>(
    pool,
    `${ITEM_SQL}
      WHERE ($1::text IS NULL OR e.estado = $1) AND ($2::bigint IS NULL OR c.merchant_id = $2)
      ORDER BY c.id DESC LIMIT $3`,
    [f.estado ?? null, f.merchantId ?? null, f.limite],
  );
}

export async function showEnvio(
  pool: pg.Pool,
  id: number,
): Promise<EnvioItem & { eventos: EnvioEvento[] }> {
  const [item] = await query<EnvioItem>(pool, `${ITEM_SQL} WHERE c.id = $1`, [id]);
  if (!item) throw new AppError('nao_encontrado', `Cobrança ${id} não encontrada.`);
  const eventos = await query<EnvioEvento>(
    pool,
    `SELECT to_char(ocorrido_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ocorrido_em,
            de, para, evento, operador, detalhes
       FROM cobrancas_eventos WHERE cobranca_id = $1 ORDER BY id`,
    [id],
  );
  return { ...item, eventos };
}

async function audit(
  pool: pg.Pool,
  id: number,
  x: {
    operador: string;
    acao: 'cobranca_cancelada' | 'cobranca_reenviada';
    antes: unknown;
    depois: unknown;
  },
): Promise<void> {
  await withTransaction(pool, async (c) => {
    const r = await c.query<{ extracao_id: string }>(
      'SELECT extracao_id FROM cobrancas WHERE id = $1',
      [id],
    );
    await writeAudit(c, {
      operador: x.operador,
      acao: x.acao,
      extracaoId: r.rows[0] ? Number(r.rows[0].extracao_id) : null,
      antes: x.antes,
      depois: x.depois,
      detalhes: { cobranca_id: id },
    });
  });
}

/**
 * Sends again: a failed charge goes back to `pendente` (audited), then one step runs now, without
 * waiting for a scheduled retry.
 */
export async function resend(
  deps: DispatchDeps,
  id: number,
  operador: string,
): Promise<StepResult> {
  const item = await showEnvio(deps.pool, id);
  if (item.estado === 'falhou') {
    await transition(deps.pool, {
      id,
      de: 'falhou',
      from: ['falhou'],
      para: 'pendente',
      evento: 'reenviada',
      operador,
      set: { motivo: null, proxima_tentativa_em: null },
    });
    await audit(deps.pool, id, {
      operador,
      acao: 'cobranca_reenviada',
      antes: { estado: 'falhou', motivo: item.motivo },
      depois: { estado: 'pendente' },
    });
  } else if (!ESTADOS_ABERTOS.includes(item.estado)) {
    throw new AppError('conflito', `A cobrança ${id} está ${item.estado}: não há o que reenviar.`);
  }
  return syncCharge({ ...deps, operador }, id, { force: true });
}

/**
 * Cancels an open charge: at the PSP first (`PATCH /cob/{txid}` status
 * REMOVIDA_PELO_USUARIO_RECEBEDOR), then here, audited. A charge the PSP never received (404)
 * is cancelled here alone.
 */
export async function cancel(deps: DispatchDeps, id: number, operador: string): Promise<EnvioItem> {
  const item = await showEnvio(deps.pool, id);
  if (!ESTADOS_ABERTOS.includes(item.estado)) {
    throw new AppError(
      'conflito',
      `A cobrança ${id} está ${item.estado}: só uma aberta pode ser cancelada.`,
    );
  }
  // Hold the dispatch so no worker sends it while it is being cancelled.
  const held = await query(
    deps.pool,
    `UPDATE cobrancas_envios SET em_andamento_ate = now() + $2::double precision * interval '1 millisecond'
      WHERE cobranca_id = $1 AND estado = ANY($3::text[])
        AND (em_andamento_ate IS NULL OR em_andamento_ate < now()) RETURNING 1`,
    [id, deps.leaseMs, [...ESTADOS_ABERTOS]],
  );
  if (!held.length) {
    throw new AppError(
      'conflito',
      'A cobrança está sendo enviada agora; tente de novo em instantes.',
    );
  }
  try {
    let pspStatus: string | null = null;
    // Pix at the PSP (PATCH /cob or /cobv), card and boleto at the link service (#36.4).
    const adapter = adapterFor(deps, item);
    if (adapter) {
      const [t] = await query<{ tipo: 'cob' | 'cobv' | 'link' | null }>(
        deps.pool,
        'SELECT tipo FROM cobrancas_envios WHERE cobranca_id = $1',
        [id],
      );
      try {
        pspStatus = await adapter.cancel({ txid: item.txid, tipo: t?.tipo ?? null });
      } catch (e) {
        if (!(e instanceof PspError)) throw e;
        if (e.kind !== 'nao_encontrado' || item.estado !== 'pendente') {
          throw new AppError('conflito', `O ${adapter.nome} não cancelou a cobrança: ${e.message}`);
        }
      }
    }
    const ok = await transition(deps.pool, {
      id,
      de: item.estado,
      from: ESTADOS_ABERTOS,
      para: 'cancelada',
      evento: 'cancelada',
      operador,
      set: { motivo: `Cancelada por ${operador}.`, psp_status: pspStatus },
    });
    if (!ok)
      throw new AppError('conflito', `A cobrança ${id} mudou de estado; veja com "mostrar".`);
    await audit(deps.pool, id, {
      operador,
      acao: 'cobranca_cancelada',
      antes: { estado: item.estado },
      depois: { estado: 'cancelada', psp_status: pspStatus },
    });
  } finally {
    await query(
      deps.pool,
      'UPDATE cobrancas_envios SET em_andamento_ate = NULL WHERE cobranca_id = $1',
      [id],
    ).catch(() => undefined);
  }
  return (await showEnvio(deps.pool, id)) as EnvioItem;
}

export interface Lojista {
  id: number;
  nome: string;
  chave_pix: string | null;
  cobrancas_abertas: number;
  cobrancas_falhas: number;
}

export async function listMerchants(pool: pg.Pool, merchantId?: number): Promise<Lojista[]> {
  return query<Lojista>(
    pool,
    `SELECT m.id::int AS id, m.nome, m.chave_pix,
            count(*) FILTER (WHERE e.estado = ANY($2::text[]))::int AS cobrancas_abertas,
            count(*) FILTER (WHERE e.estado = 'falhou')::int AS cobrancas_falhas
       FROM merchants m
       LEFT JOIN cobrancas c ON c.merchant_id = m.id
       LEFT JOIN cobrancas_envios e ON e.cobranca_id = c.id
      WHERE ($1::bigint IS NULL OR m.id = $1)
      GROUP BY m.id ORDER BY m.id`,
    [merchantId ?? null, [...ESTADOS_ABERTOS]],
  );
}

/** Sets a merchant's Pix key after validating it (normalized as the DICT keeps it), audited. */
export async function setChavePix(
  pool: pg.Pool,
  merchantId: number,
  entrada: string,
  operador: string,
): Promise<{ lojista: Lojista; tipo: TipoChavePix }> {
  const v = validarChavePix(entrada);
  if (!v.ok) throw new AppError('entrada_invalida', v.motivo);
  await withTransaction(pool, async (c) => {
    const r = await c.query<{ antes: string | null }>(
      `WITH old AS (SELECT chave_pix FROM merchants WHERE id = $1 FOR UPDATE)
       UPDATE merchants m SET chave_pix = $2 FROM old WHERE m.id = $1 RETURNING old.chave_pix AS antes`,
      [merchantId, v.chave],
    );
    if (!r.rows[0]) throw new AppError('nao_encontrado', `Lojista ${merchantId} não encontrado.`);
    await writeAudit(c, {
      operador,
      acao: 'chave_pix_alterada',
      extracaoId: null,
      antes: { chave_pix: r.rows[0].antes },
      depois: { chave_pix: v.chave, tipo: v.tipo },
      detalhes: { merchant_id: merchantId },
    });
  });
  const [lojista] = await listMerchants(pool, merchantId);
  return { lojista: lojista!, tipo: v.tipo };
}

/**
 * Registers the webhook with the PSP for every merchant's Pix key (`PUT /webhook/{chave}`):
 * `{base}/pix/webhook/{token}` (the PSP appends `/pix`). Returns each key's outcome.
 */
export async function registerWebhooks(
  pool: pg.Pool,
  client: PixClient,
  base: string,
  token: string,
): Promise<{ merchant_id: number; chave: string; ok: boolean; erro?: string }[]> {
  const url = `${base.replace(/\/+$/, '')}/pix/webhook/${token}`;
  const rows = await query<{ id: number; chave_pix: string }>(
    pool,
    'SELECT id::int AS id, chave_pix FROM merchants WHERE chave_pix IS NOT NULL ORDER BY id',
  );
  const out: { merchant_id: number; chave: string; ok: boolean; erro?: string }[] = [];
  for (const r of rows) {
    try {
      await client.putWebhook(r.chave_pix, url);
      out.push({ merchant_id: r.id, chave: r.chave_pix, ok: true });
    } catch (e) {
      if (!(e instanceof PspError)) throw e;
      out.push({ merchant_id: r.id, chave: r.chave_pix, ok: false, erro: e.message });
    }
  }
  return out;
}

/**
 * The merchant got the copia-e-cola (the channel that sends it calls this once it went out):
 * `registrada` → `enviada_ao_lojista`, with its event. False when the charge was not `registrada`.
 */
export function markSentToMerchant(
  pool: pg.Pool | pg.PoolClient,
  id: number,
  operador: string,
  detalhes: Record<string, unknown> = {},
): Promise<boolean> {
  return transition(pool, {
    id,
    de: 'registrada',
    from: ['registrada'],
    para: 'enviada_ao_lojista',
    evento: 'enviada_ao_lojista',
    operador,
    detalhes,
  });
}
