/**
 * The WhatsApp sender (#37): pg-boss queue `whatsapp`, one job per outbox row (written by the
 * row's insert trigger, migration 0970). A job claims its row (pendente → enviando, with a
 * lease), sends it once, and stores the wamid (which becomes the row's mensagem_id, so the
 * merchant's reply — context.id — finds its thread) and enviada_em. Errors: rate limits back off
 * and retry; a rejected token stops this sender and raises an alert; a closed 24-hour window,
 * an undeliverable number and other refusals fail the row with a pt-BR reason for a person.
 *
 * Exactly once as far as the channel allows: a row whose sending may have reached Meta (a
 * timeout, a sender killed between Meta's answer and our commit) stays 'enviando' until a status
 * webhook reconciles it (biz_opaque_callback_data carries the outbox id) — only after
 * `graceMs` without one is it sent again. A sweep every `sweepS` seconds gives a job to rows
 * that lost theirs (a stopped sender, a crashed worker).
 */
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { withTransaction } from '../db/tx';
import type { Logger } from '../util/logger';
import { returnItemToPerson } from './back-to-person';
import {
  createWhatsAppClient,
  parametroDoModelo,
  WhatsAppApiError,
  type WhatsAppClient,
} from './client';
import { whatsappSendConfig, type WhatsAppTemplate } from './config';
import { callbackData, chargeReachedMerchant } from './statuses';
import { ERRO, motivoFalha } from './texts';

export const WHATSAPP_QUEUE = 'whatsapp';
/** The Cloud API's limit of a text body. */
export const TEXTO_WHATSAPP_MAX = 4096;
/** Attempts before a row that keeps meeting transient failures is given to a person. */
export const MAX_TENTATIVAS = 10;

export interface SaidaJobData {
  saida: number;
}

export type SendResult = 'enviada' | 'adiada' | 'falhou' | 'incerta' | 'token_recusado' | 'nada';

export interface SenderDeps {
  pool: pg.Pool;
  client: WhatsAppClient;
  /** The approved template for a closed 24-hour window (BALCAO_WHATSAPP_TEMPLATE); none: text. */
  template?: WhatsAppTemplate | null | undefined;
  logger?: Logger | undefined;
  /** How long a claim lasts (ms). */
  leaseMs: number;
  /** How long a maybe-sent row waits for a status webhook before it is sent again (ms). */
  graceMs: number;
  /** Wait before the next attempt after a rate limit or a transient failure (ms). */
  backoffMs(tentativas: number): number;
  /** A job for the row after `seconds` (the sender's retries). */
  schedule(saida: number, seconds: number): Promise<void>;
  /** Called when Meta refuses the token (190): the sender stops. */
  onTokenRejected?(): void;
}

/** 2, 4, 8 … up to 300 s. */
export function defaultBackoffMs(tentativas: number): number {
  return Math.min(300_000, 1000 * 2 ** Math.max(1, Math.min(tentativas, 9)));
}

interface Claimed {
  id: number;
  texto: string;
  telefone: string | null;
  contexto: string | null;
  tentativas: number;
  /** The destination wrote within the last 24 hours (Meta's customer-service window). */
  janela_aberta: boolean;
}

async function claim(deps: SenderDeps, id: number): Promise<Claimed | null> {
  const r = await deps.pool.query<Claimed>({
    text: `WITH c AS (
             UPDATE mensagens_saida SET estado = 'enviando', tentativas = tentativas + 1,
                    em_andamento_ate = now() + $2 * interval '1 millisecond',
                    proxima_tentativa_em = NULL
              WHERE id = $1 AND canal = 'whatsapp' AND wamid IS NULL
                AND ((estado = 'pendente' AND coalesce(proxima_tentativa_em, '-infinity') <= now())
                  OR (estado = 'enviando'
                      AND em_andamento_ate < now() - $3 * interval '1 millisecond'))
              RETURNING id, texto, telefone, responde_a, merchant_id, tentativas)
           , d AS (
             SELECT c.id::int AS id, c.texto, c.tentativas,
                    coalesce(c.telefone, r.telefone,
                             (SELECT k.telefone FROM lojistas_contatos k
                               WHERE k.merchant_id = c.merchant_id
                               ORDER BY k.criado_em, k.telefone LIMIT 1)) AS telefone,
                    r.wamid AS contexto
               FROM c LEFT JOIN whatsapp_recebidas r ON r.wamid = c.responde_a)
           SELECT d.*,
                  coalesce((SELECT w.enviada_em > now() - interval '24 hours'
                              FROM whatsapp_recebidas w WHERE w.telefone = d.telefone
                             ORDER BY w.enviada_em DESC LIMIT 1), false) AS janela_aberta
             FROM d`,
    values: [id, deps.leaseMs, deps.graceMs],
  });
  return r.rows[0] ?? null;
}

/** The row fails with a reason for a person; its waiting item goes back to the queue. */
async function fail(deps: SenderDeps, id: number, motivo: string, code: number | null) {
  await withTransaction(deps.pool, async (c) => {
    const r = await c.query({
      text: `UPDATE mensagens_saida SET estado = 'falhou', motivo = $2, erro_codigo = $3,
                    falhou_em = now(), em_andamento_ate = NULL
              WHERE id = $1 AND estado = 'enviando'`,
      values: [id, motivo.slice(0, 500), code],
    });
    if (r.rowCount) await returnItemToPerson(c, id, motivo);
  });
}

async function later(deps: SenderDeps, id: number, tentativas: number, code: number | null) {
  const ms = Math.max(0, Math.round(deps.backoffMs(tentativas)));
  await deps.pool.query({
    text: `UPDATE mensagens_saida SET estado = 'pendente', em_andamento_ate = NULL,
                  erro_codigo = $3,
                  proxima_tentativa_em = now() + $2 * interval '1 millisecond'
            WHERE id = $1 AND estado = 'enviando'`,
    values: [id, ms, code],
  });
  await deps.schedule(id, Math.ceil(ms / 1000));
}

/**
 * One HTTP send of a claimed row. Inside the 24-hour window (or without a template configured)
 * a free-form text; outside it the approved template with the text as its body parameter — and
 * when Meta answers 131047 to a text (its clock says the window closed), the template at once.
 */
async function deliver(
  deps: SenderDeps,
  id: number,
  row: Claimed,
  telefone: string,
): Promise<{ wamid: string; modelo: string | null }> {
  const to = telefone.replace(/^\+/, '');
  const tpl = deps.template && deps.client.sendTemplate ? deps.template : null;
  const viaModelo = async () => {
    const r = await deps.client.sendTemplate!({
      to,
      nome: tpl!.nome,
      idioma: tpl!.idioma,
      parametro: parametroDoModelo(row.texto),
      callbackData: callbackData(id),
    });
    return { wamid: r.wamid, modelo: tpl!.nome };
  };
  if (tpl && !row.janela_aberta) return viaModelo();
  try {
    const r = await deps.client.sendText({
      to,
      body: row.texto,
      ...(row.contexto ? { contextMessageId: row.contexto } : {}),
      callbackData: callbackData(id),
    });
    return { wamid: r.wamid, modelo: null };
  } catch (e) {
    if (tpl && e instanceof WhatsAppApiError && e.code === ERRO.JANELA_FECHADA) {
      deps.logger?.info({ saida: id }, 'whatsapp: janela de 24 h fechada; enviando o modelo');
      return viaModelo();
    }
    throw e;
  }
}

/** Sends one outbox row if it is due and not taken; what happened. */
export async function sendOutboxRow(deps: SenderDeps, id: number): Promise<SendResult> {
  const row = await claim(deps, id);
  if (!row) return 'nada';
  if (!row.telefone) {
    await fail(
      deps,
      id,
      'Sem número de WhatsApp para enviar: cadastre o número do lojista (balcao lojistas contatos adicionar).',
      null,
    );
    return 'falhou';
  }
  if (row.texto.length > TEXTO_WHATSAPP_MAX) {
    await fail(
      deps,
      id,
      `O texto passa de ${TEXTO_WHATSAPP_MAX.toLocaleString('pt-BR')} caracteres, o máximo do WhatsApp; encurte-o.`,
      null,
    );
    return 'falhou';
  }
  try {
    const { wamid, modelo } = await deliver(deps, id, row, row.telefone);
    await withTransaction(deps.pool, async (c) => {
      const r = await c.query<{ estado: string; tipo: string; cobranca_id: number | null }>({
        text: `UPDATE mensagens_saida SET
                 estado = CASE WHEN estado = 'enviando' THEN 'enviada' ELSE estado END,
                 mensagem_id = CASE WHEN wamid IS NULL THEN $2 ELSE mensagem_id END,
                 wamid = coalesce(wamid, $2),
                 enviada_em = coalesce(enviada_em, now()),
                 em_andamento_ate = NULL, erro_codigo = NULL,
                 modelo = CASE WHEN wamid IS NULL OR wamid = $2 THEN $3 ELSE modelo END
               WHERE id = $1
               RETURNING estado, tipo, cobranca_id::int AS cobranca_id`,
        values: [id, wamid, modelo],
      });
      const sent = r.rows[0];
      if (sent) await chargeReachedMerchant(c, id, sent);
    });
    return 'enviada';
  } catch (e) {
    if (!(e instanceof WhatsAppApiError)) throw e;
    const code = e.code ?? null;
    deps.logger?.warn(
      { saida: id, tipo: e.tipo, codigo: code, http: e.status, tentativas: row.tentativas },
      'whatsapp: envio não concluído',
    );
    switch (e.tipo) {
      case 'limite':
        await later(deps, id, row.tentativas, code);
        return 'adiada';
      case 'token':
        await deps.pool.query({
          text: `UPDATE mensagens_saida SET estado = 'pendente', em_andamento_ate = NULL,
                        tentativas = greatest(tentativas - 1, 0), erro_codigo = $2
                  WHERE id = $1 AND estado = 'enviando'`,
          values: [id, code],
        });
        deps.logger?.error(
          { alerta: 'whatsapp_token', codigo: code },
          'ALERTA: a Meta recusou o token do WhatsApp (BALCAO_WHATSAPP_TOKEN); o envio parou até o token ser trocado e o worker reiniciado.',
        );
        deps.onTokenRejected?.();
        return 'token_recusado';
      case 'permanente':
        await fail(deps, id, motivoFalha(e.code, e.status), code);
        return 'falhou';
      case 'transitorio':
        if (row.tentativas >= MAX_TENTATIVAS) {
          await fail(
            deps,
            id,
            `O WhatsApp não aceitou a mensagem depois de ${MAX_TENTATIVAS} tentativas (fora do ar ou instável); reenvie mais tarde.`,
            code,
          );
          return 'falhou';
        }
        await later(deps, id, row.tentativas, code);
        return 'adiada';
      case 'incerto': {
        // Maybe sent: wait for a status webhook (it reconciles the row) before trying again.
        await deps.pool.query({
          text: `UPDATE mensagens_saida SET em_andamento_ate = now()
                  WHERE id = $1 AND estado = 'enviando'`,
          values: [id],
        });
        await deps.schedule(id, Math.ceil(deps.graceMs / 1000) + 1);
        return 'incerta';
      }
    }
  }
}

/** Gives a job to rows that are due and have none running (lost jobs, a stopped sender). */
export async function sweepOutbox(
  pool: pg.Pool,
  boss: PgBoss,
  graceMs: number,
  limit = 500,
): Promise<number> {
  const r = await pool.query<{ id: number }>({
    text: `SELECT s.id::int AS id FROM mensagens_saida s
            WHERE s.canal = 'whatsapp' AND s.wamid IS NULL
              AND ((s.estado = 'pendente'
                    AND coalesce(s.proxima_tentativa_em, s.criada_em) <= now() - interval '30 seconds')
                OR (s.estado = 'enviando'
                    AND s.em_andamento_ate < now() - $1 * interval '1 millisecond'))
              AND NOT EXISTS (SELECT 1 FROM pgboss.job j
                               WHERE j.name = 'whatsapp' AND j.state < 'completed'
                                 AND j.data->>'saida' = s.id::text)
            ORDER BY s.id LIMIT $2`,
    values: [graceMs, limit],
  });
  if (r.rows.length) {
    await boss.insert(
      r.rows.map((x) => ({ name: WHATSAPP_QUEUE, data: { saida: x.id } satisfies SaidaJobData })),
    );
  }
  return r.rows.length;
}

export interface WhatsAppSenderOptions {
  pool: pg.Pool;
  boss: PgBoss;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  concurrency?: number;
  pollingIntervalSeconds?: number;
  sweepS?: number;
  graceMs?: number;
  leaseMs?: number;
  timeoutMs?: number;
  backoffMs?: (tentativas: number) => number;
  /** Injected client (tests); default: the Cloud API from the environment. */
  client?: WhatsAppClient;
  /** With an injected client: the template for a closed window (else from the environment). */
  template?: WhatsAppTemplate | null;
  onJob?: (r: { saida: number; resultado: SendResult }) => void;
}

export interface WhatsAppSender {
  /** False without BALCAO_WHATSAPP_TOKEN / BALCAO_WHATSAPP_PHONE_NUMBER_ID: nothing is sent. */
  ativo: boolean;
  stop(): Promise<void>;
}

/** Seconds between sweeps (BALCAO_WHATSAPP_VARREDURA_S, 1–3600; default 60). */
export function whatsappSweepSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BALCAO_WHATSAPP_VARREDURA_S);
  return Number.isInteger(n) && n >= 1 && n <= 3600 ? n : 60;
}

export async function startWhatsAppSender(opts: WhatsAppSenderOptions): Promise<WhatsAppSender> {
  let client = opts.client;
  let template = opts.template ?? null;
  if (!client) {
    const cfg = whatsappSendConfig(opts.env);
    if (!cfg.ok) {
      opts.logger.warn(
        `WhatsApp: envio desligado — ${cfg.motivo}; as mensagens ficam pendentes e saem quando o worker iniciar configurado.`,
      );
      return { ativo: false, stop: async () => undefined };
    }
    template = cfg.config.template ?? null;
    client = createWhatsAppClient(cfg.config, {
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    });
  }
  let tokenRejected = false;
  const graceMs = opts.graceMs ?? 120_000;
  const deps: SenderDeps = {
    pool: opts.pool,
    client,
    template,
    logger: opts.logger,
    leaseMs: opts.leaseMs ?? 60_000,
    graceMs,
    backoffMs: opts.backoffMs ?? defaultBackoffMs,
    schedule: async (saida, seconds) => {
      await opts.boss.send(WHATSAPP_QUEUE, { saida } satisfies SaidaJobData, {
        startAfter: Math.max(0, seconds),
      });
    },
    onTokenRejected: () => {
      tokenRejected = true;
    },
  };
  for (let i = 0; i < Math.max(1, opts.concurrency ?? 2); i++) {
    await opts.boss.work<SaidaJobData>(
      WHATSAPP_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 },
      async ([job]) => {
        if (!job || tokenRejected) return;
        const saida = Number(job.data?.saida);
        if (!Number.isSafeInteger(saida) || saida <= 0) return;
        const resultado = await sendOutboxRow(deps, saida);
        opts.logger.info({ saida, resultado }, 'whatsapp: envio');
        opts.onJob?.({ saida, resultado });
      },
    );
  }
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const sweepMs = (opts.sweepS ?? 60) * 1000;
  const sweep = () => {
    running = (tokenRejected ? Promise.resolve(0) : sweepOutbox(opts.pool, opts.boss, graceMs))
      .then((n) => {
        if (n) opts.logger.info({ reenfileiradas: n }, 'whatsapp: varredura da caixa de saída');
      })
      .catch((err: unknown) => opts.logger.warn({ err }, 'whatsapp: varredura falhou'))
      .finally(() => {
        if (!stopped) timer = setTimeout(sweep, sweepMs);
      });
  };
  sweep();
  opts.logger.info('whatsapp: envio ativo');
  return {
    ativo: true,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await opts.boss.offWork(WHATSAPP_QUEUE);
    },
  };
}
