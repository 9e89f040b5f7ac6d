import type {
  Charge,
  ConfirmResult,
  DiscardReason,
  ExtractionDetail,
  RerunResult,
  ValidationResult,
} from '@shared/contract/review';
import { dateToConfirm, dateToConfirmMessage } from '@shared/due-dates';
import { AppError } from '@shared/errors';
import {
  fieldProblem,
  normalizeDados,
  type DadosCobrancaDraft as DadosInput,
} from '@shared/charge-schema';
import {
  CAMPOS_FALTANTES,
  type CampoEmFaltando,
  type DadosCobranca,
  type RuleError,
} from '@shared/extraction-types';
import { localDate } from '@shared/time';
import { removeCardNumbers } from '@shared/pii';
import { isMaskedDocumento, unmaskDocumento } from '@shared/lgpd';
import type pg from 'pg';
import type { Clock } from '../clock';
import type { SettingsSource } from '../settings/types';
import { AUDIT_COLS, writeAudit } from './audit';
import { changedFields, getExtraction } from './detail';
import { CLEAR_LEASE, DEFAULT_LEASE_TTL_MS, assertHeld, lockHeld, lockRow } from './lease';
import { questionFor } from '@shared/question';
import { loadRerunSource, storeRound, type RerunOutcome } from './rerun';

export type { RerunOutcome } from './rerun';
import { CHARGE_COLS, toCharge, type ChargeRow } from './rows';
import type { ChargeRules } from './rules';
import { SqlParams } from '../db/sql-params';
import { withTransaction } from '../db/tx';
import { samplingCtes } from '../quality/sampling';
import type { QualitySampling } from '../settings/quality-sampling';

/** The extraction run again for the queue (see ./rerunner.ts). */
export interface ExtractionRerunner {
  /** pt-BR reason the extraction cannot run now (no API key…), or null when it can. */
  unavailableReason(): string | null;
  /** Runs the extraction on the original text plus the merchant's answers so far. */
  run(args: {
    texto: string;
    respostas: string[];
    signal?: AbortSignal;
    /** When the text arrived (the due-date check, #42.1); answers recorded now are read now. */
    chegada?: Date;
  }): Promise<RerunOutcome>;
}

/** What the queue services need. */
export interface QueueContext {
  pool: pg.Pool;
  clock: Clock;
  settings: SettingsSource;
  rules: ChargeRules;
  rerunner: ExtractionRerunner | null;
  leaseTtlMs?: number;
}

export function ttl(ctx: QueueContext): number {
  return ctx.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
}

/** "Today" for the rules: the one clock, in the configured zone. */
export function today(ctx: Pick<QueueContext, 'clock' | 'settings'>): string {
  return localDate(ctx.clock.now(), ctx.settings.get().timeZone);
}

const detailOf = (ctx: QueueContext, db: pg.Pool | pg.PoolClient, id: number) =>
  getExtraction(db, id, ctx.settings.get().prices);

const REQUIRED_MSG: Record<CampoEmFaltando, string> = {
  valor_centavos: 'Informe o valor para criar a cobrança.',
  parcelas: 'Informe o número de parcelas para criar a cobrança.',
  metodo: 'Escolha a forma de pagamento para criar a cobrança.',
  cliente_nome: 'Informe o nome do cliente para criar a cobrança.',
  vencimento: 'Informe o vencimento para criar a cobrança.',
  cliente_documento: 'Informe o CPF ou CNPJ do cliente: o boleto registrado exige.',
};

function groupByField(erros: RuleError[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of erros) (out[e.campo] ??= []).push(e.mensagem);
  return out;
}

/**
 * Checks the form with the extraction's charge rules for today and, to create a charge, requires every
 * field (a charge cannot have anything missing). Messages are pt-BR, per field.
 */
export function validateDados(
  ctx: Pick<QueueContext, 'rules' | 'clock' | 'settings'>,
  input: DadosInput,
): ValidationResult {
  return checkDados(ctx, normalizeDados(input));
}

/** `validateDados` on a charge already normalized. */
export function checkDados(
  ctx: Pick<QueueContext, 'rules' | 'clock' | 'settings'>,
  dados: DadosCobranca,
): ValidationResult {
  const erros = ctx.rules.validate(dados, today(ctx));
  for (const campo of dados.faltando) {
    if (!erros.some((e) => e.campo === campo)) {
      erros.push({ campo, regra: 'obrigatorio_para_criar', mensagem: REQUIRED_MSG[campo] });
    }
  }
  return { ok: erros.length === 0, fields: groupByField(erros), erros };
}

/** Saves the agent's edits as a draft (rules are checked on confirm, not here). */
export async function saveDraft(
  ctx: QueueContext,
  args: { id: number; token: string; dados: DadosInput },
): Promise<ExtractionDetail> {
  const operador = ctx.settings.get().operator;
  return withTransaction(ctx.pool, async (c) => {
    const row = await lockHeld(c, args.id, args.token);
    const before = row.dados_revisados ?? row.dados;
    const dados = normalizeDados(withStoredDocumento(args.dados, row));
    // The draft and its audit entry in one statement.
    await c.query({
      text: `WITH salvo AS (
               UPDATE extracoes SET dados_revisados = $2::jsonb, atualizada_em = now()
                WHERE id = $1
               RETURNING id)
             INSERT INTO auditoria (${AUDIT_COLS})
             SELECT $3::text, 'rascunho_salvo', id, $4::jsonb, $2::jsonb, $5::jsonb FROM salvo`,
      values: [
        args.id,
        JSON.stringify(dados),
        operador,
        JSON.stringify(before),
        JSON.stringify({ campos: changedFields(before, dados).map((x) => x.campo) }),
      ],
    });
    return detailOf(ctx, c, args.id);
  });
}

async function chargeOf(c: pg.PoolClient, extracaoId: number): Promise<Charge | null> {
  const r = await c.query<ChargeRow>({
    text: `SELECT ${CHARGE_COLS} FROM cobrancas c JOIN merchants m ON m.id = c.merchant_id
            WHERE c.extracao_id = $1 AND c.devolvida_em IS NULL`,
    values: [extracaoId],
  });
  return r.rows[0] ? toCharge(r.rows[0]) : null;
}

/**
 * Confirms the agent's version and creates the charge — at most once per extraction. The item
 * row is locked first, so double clicks, retries and other agents queue up behind the first
 * confirm and then get the charge it created (`criada: false`); the UNIQUE extracao_id backs it
 * up. The charge stores which fields the agent changed from the model's version; the item
 * leaves the queue and the audit entry commit in the same transaction.
 */
export async function confirmCharge(
  ctx: QueueContext,
  args: { id: number; token: string; dados: DadosInput; vencimentoConfirmado?: string },
): Promise<ConfirmResult> {
  const operador = ctx.settings.get().operator;
  return withTransaction(ctx.pool, async (c) => {
    const row = await lockRow(c, args.id, args.token);
    // The row read under the lock says whether a charge stands for it; when the lock was waited
    // for (another confirm committed meanwhile), that read's snapshot is older than the row: ask
    // again, so the caller gets the charge the other one created.
    const existing =
      row.cobranca_id !== null || !row.held || row.fila_estado !== 'aberta'
        ? await chargeOf(c, args.id)
        : null;
    if (existing) return { cobranca: existing, criada: false };
    await assertHeld(c, row, args.token);
    // The text names another due date (#42.1): only a date the agent confirmed explicitly.
    const vencimento = args.dados.vencimento ?? null;
    const alerta = dateToConfirm(row.alertas, vencimento);
    if (alerta && (vencimento === null || args.vencimentoConfirmado !== vencimento)) {
      throw new AppError('entrada_invalida', dateToConfirmMessage(alerta, vencimento), {
        vencimento: [dateToConfirmMessage(alerta, vencimento)],
      });
    }
    // No charge under the row lock (above): nothing to look up again before the insert.
    return createChargeInTx(ctx, c, row, withStoredDocumento(args.dados, row), operador, {
      semCobranca: true,
    });
  });
}

/** The document as the screen showed it (masked, #38.2) means the stored one. */
function withStoredDocumento(
  dados: DadosInput,
  row: { dados: DadosCobranca | null; dados_revisados: DadosCobranca | null },
): DadosInput {
  if (!dados.cliente_documento?.includes('*')) return dados;
  const doc = unmaskDocumento(
    dados.cliente_documento,
    row.dados_revisados?.cliente_documento,
    row.dados?.cliente_documento,
  );
  if (doc && isMaskedDocumento(doc)) {
    // The mask of no document this item holds: nothing to keep.
    const m = fieldProblem('cliente_documento', doc).mensagem;
    throw new AppError('entrada_invalida', m, { 'dados.cliente_documento': [m] });
  }
  return { ...dados, cliente_documento: doc ?? null };
}

/**
 * THE charge creation, inside the caller's transaction with the item row already locked:
 * the rules for today ({@link prepareCharge}), the insert (at most one charge per extraction:
 * UNIQUE extracao_id), the item leaving the queue as 'resolvida' and the 'cobranca_criada'
 * audit entry ({@link chargeCtes}) — the agent's confirm, the intake's automatic creation for a
 * merchant's reply (operador "sistema") and, in its one statement, the intake's new item.
 */
export async function createChargeInTx(
  ctx: Pick<QueueContext, 'rules' | 'clock' | 'settings'>,
  c: pg.PoolClient,
  row: { id: number; merchant_id: number; dados: DadosCobranca | null },
  dadosIn: DadosInput,
  operador: string,
  opts: { semCobranca?: boolean } = {},
): Promise<ConfirmResult> {
  const existing = opts.semCobranca ? null : await chargeOf(c, row.id);
  if (existing) return { cobranca: existing, criada: false };
  const prepared = prepareCharge(ctx, row.dados, dadosIn);
  const p = new SqlParams();
  const ctes = chargeCtes(p, {
    extracaoId: p.add(row.id),
    merchantId: row.merchant_id,
    antes: row.dados,
    charge: prepared,
    operador,
    amostra: ctx.settings.get().amostraQualidade,
  });
  // The charge, its audit entry, the item leaving the queue and the row read back (with the
  // merchant's name) in one round trip; a charge that already existed (ON CONFLICT: another
  // transaction made it first) writes none of them.
  const ins = await c.query<ChargeRow>({
    text: `WITH ${ctes},
           resolvida AS (
             UPDATE extracoes SET fila_estado = 'resolvida',
                    dados_revisados = ${p.add(JSON.stringify(prepared.dados), '::jsonb')},
                    resolvida_por = ${p.add(operador, '::text')}, resolvida_em = now(),
                    atualizada_em = now(), ${CLEAR_LEASE}
              WHERE id = ${p.add(row.id)} AND EXISTS (SELECT 1 FROM c))
           SELECT ${CHARGE_COLS} FROM c JOIN merchants m ON m.id = c.merchant_id`,
    values: p.values,
  });
  if (!ins.rows[0]) {
    // Another transaction created it first (the UNIQUE extracao_id): that one is the charge.
    const charge = await chargeOf(c, row.id);
    if (!charge) throw new AppError('interno', 'A cobrança não foi gravada.');
    return { cobranca: charge, criada: false };
  }
  return { cobranca: toCharge(ins.rows[0]), criada: true };
}

/** A charge ready to be written: normalized, accepted by today's rules, what the agent changed. */
export interface PreparedCharge {
  dados: DadosCobranca;
  alteracoes: Charge['alteracoes'];
}

/**
 * The charge's fields as they will be written, checked against today's rules (every field
 * required): throws `entrada_invalida` with the first rule's pt-BR message otherwise. `antes` is
 * the model's version, for the record of what the agent changed.
 */
export function prepareCharge(
  ctx: Pick<QueueContext, 'rules' | 'clock' | 'settings'>,
  antes: DadosCobranca | null,
  dadosIn: DadosInput,
): PreparedCharge {
  const dados = normalizeDados(dadosIn);
  const v = checkDados(ctx, dados);
  if (!v.ok) {
    throw new AppError(
      'entrada_invalida',
      v.erros[0]?.mensagem ?? 'A cobrança não passou nas regras.',
      v.fields,
    );
  }
  const alteracoes: Charge['alteracoes'] = {};
  for (const ch of changedFields(antes, dados)) {
    if (ch.campo !== 'faltando') alteracoes[ch.campo] = { modelo: ch.antes, agente: ch.depois };
  }
  return { dados, alteracoes };
}

/**
 * The CTEs that write a charge (`c`, nothing when the extraction already has one) and its
 * 'cobranca_criada' audit entry (`a`, only with the charge), for the queue's confirm and for the
 * intake's one-statement outcome. `extracaoId` is an SQL expression (a placeholder, or
 * `(SELECT id FROM e)` for an extraction inserted by the same statement).
 */
export function chargeCtes(
  p: SqlParams,
  x: {
    extracaoId: string;
    merchantId: number;
    antes: DadosCobranca | null;
    charge: PreparedCharge;
    operador: string;
    /** Quality sampling's share (#39.4); absent → the defaults. */
    amostra?: QualitySampling | undefined;
    /** A CTE of the same statement with the extraction's `modelo, versao_prompt`. */
    versaoDe?: string | undefined;
  },
): string {
  const d = x.charge.dados;
  const alteracoes = p.add(JSON.stringify(x.charge.alteracoes), '::jsonb');
  const operador = p.add(x.operador, '::text');
  return `c AS (
             INSERT INTO cobrancas (extracao_id, merchant_id, valor_centavos, parcelas, metodo,
               cliente_nome, vencimento, descricao, cliente_documento, alteracoes, criada_por)
             VALUES (${x.extracaoId}, ${[
               x.merchantId,
               d.valor_centavos,
               d.parcelas,
               d.metodo,
               d.cliente_nome,
               d.vencimento,
               d.descricao,
               d.cliente_documento ?? null,
             ]
               .map((v) => p.add(v))
               .join(', ')}, ${alteracoes}, ${operador})
             ON CONFLICT (extracao_id) WHERE devolvida_em IS NULL DO NOTHING RETURNING *),
           a AS (
             INSERT INTO auditoria (${AUDIT_COLS})
             SELECT ${operador}, 'cobranca_criada', c.extracao_id, ${p.add(JSON.stringify(x.antes), '::jsonb')},
                    ${p.add(JSON.stringify(d), '::jsonb')},
                    jsonb_build_object('cobranca_id', c.id, 'alteracoes', ${alteracoes})
               FROM c),
           ${dispatchCtes(operador)},
           ${samplingCtes(p, x)}`;
}

/**
 * The charge's dispatch (#36), written by the statement that writes the charge: the dispatch row
 * (`pendente`, its txid derived once from the charge), its first event and the job of the
 * `cobrancas` queue that sends it to the PSP (pg-boss's row, with the queue's own settings).
 */
function dispatchCtes(operador: string): string {
  return `envio AS (
             INSERT INTO cobrancas_envios (cobranca_id, txid)
             SELECT c.id, balcao_pix_txid(c.id, c.criada_em) FROM c RETURNING cobranca_id),
           envio_evento AS (
             INSERT INTO cobrancas_eventos (cobranca_id, para, evento, operador)
             SELECT cobranca_id, 'pendente', 'criada', ${operador} FROM envio),
           envio_job AS (
             INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff,
               expire_in, keep_until, policy)
             SELECT q.name, jsonb_build_object('cobranca', envio.cobranca_id), q.retry_limit,
                    q.retry_delay, q.retry_backoff, q.expire_seconds * interval '1 second',
                    now() + q.retention_minutes * interval '1 minute', q.policy
               FROM envio JOIN pgboss.queue q ON q.name = 'cobrancas')`;
}

/** Takes the item out of the queue with a reason from the list (and free text). */
export async function discard(
  ctx: QueueContext,
  args: { id: number; token: string; motivo: DiscardReason; detalhe?: string | undefined },
): Promise<ExtractionDetail> {
  const operador = ctx.settings.get().operator;
  return withTransaction(ctx.pool, async (c) => {
    await discardInTx(c, { ...args, operador });
    return detailOf(ctx, c, args.id);
  });
}

/**
 * THE discard, inside the caller's transaction: the caller's live lease on the open item
 * (`lockHeld`), the item leaving the queue with its reason, and its 'descartada' audit entry —
 * the agent's own discard and each item of a supervisor's bulk discard (./bulk.ts).
 */
export async function discardInTx(
  c: pg.PoolClient,
  args: {
    id: number;
    token: string;
    motivo: DiscardReason;
    detalhe?: string | undefined;
    operador: string;
    /** Added to the audit entry (a bulk discard says so). */
    detalhes?: Record<string, unknown>;
  },
): Promise<void> {
  const operador = args.operador;
  const detalhe = args.detalhe?.trim() || null;
  const row = await lockHeld(c, args.id, args.token);
  await c.query({
    text: `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = $2,
               descarte_detalhe = $3, resolvida_por = $4, resolvida_em = now(),
               atualizada_em = now(), ${CLEAR_LEASE}
             WHERE id = $1`,
    values: [args.id, args.motivo, detalhe, operador],
  });
  await writeAudit(c, {
    operador,
    acao: 'descartada',
    extracaoId: args.id,
    antes: { fila_estado: row.fila_estado },
    depois: { fila_estado: 'descartada', motivo: args.motivo, detalhe },
    ...(args.detalhes ? { detalhes: args.detalhes } : {}),
  });
}

/**
 * The question for the merchant from what is missing — in the agent's form when it sends its
 * `faltando`, else in the saved version — recorded as asked; the item then waits for the
 * merchant (`aguardando_desde`, situation 'aguardando_lojista') until the answer is recorded.
 */
export async function askMerchant(
  ctx: QueueContext,
  args: { id: number; token: string; faltando?: readonly CampoEmFaltando[] | undefined },
): Promise<{ pergunta: string }> {
  const operador = ctx.settings.get().operator;
  return withTransaction(ctx.pool, async (c) => {
    const row = await lockHeld(c, args.id, args.token);
    const current = row.dados_revisados ?? row.dados;
    const faltando = args.faltando ?? current?.faltando ?? CAMPOS_FALTANTES;
    const pergunta = questionFor(faltando);
    if (!pergunta) {
      throw new AppError('conflito', 'Nada está faltando: não há o que perguntar ao lojista.');
    }
    await c.query({
      text: `UPDATE extracoes SET aguardando_desde = coalesce(aguardando_desde, now()),
               atualizada_em = now() WHERE id = $1`,
      values: [args.id],
    });
    await writeAudit(c, {
      operador,
      acao: 'pergunta_ao_lojista',
      extracaoId: args.id,
      detalhes: { pergunta, faltando },
    });
    return { pergunta };
  });
}

async function rerun(
  ctx: QueueContext,
  args: { id: number; token: string; resposta?: string; signal?: AbortSignal | undefined },
): Promise<RerunResult> {
  const operador = ctx.settings.get().operator;
  // 1. Check the lease and record the answer before calling the model: what the agent typed
  //    is never lost, even when the model call fails or there is no key.
  const before = await withTransaction(ctx.pool, async (c) => {
    await lockHeld(c, args.id, args.token);
    if (args.resposta !== undefined) {
      // The merchant answered: the item no longer waits for them.
      await c.query({
        text: `UPDATE extracoes SET aguardando_desde = NULL, atualizada_em = now()
                WHERE id = $1 AND aguardando_desde IS NOT NULL`,
        values: [args.id],
      });
      await writeAudit(c, {
        operador,
        acao: 'resposta_registrada',
        extracaoId: args.id,
        detalhes: { resposta: args.resposta },
      });
    }
    return loadRerunSource(c, args.id);
  });
  const reason = ctx.rerunner
    ? ctx.rerunner.unavailableReason()
    : 'O motor de extração não está disponível.';
  if (reason || !ctx.rerunner) {
    const what = args.resposta !== undefined ? 'A resposta foi registrada, mas a' : 'A';
    return {
      executado: false,
      mensagem:
        `${reason ?? ''} ${what} extração não foi refeita: preencha os campos à mão.`.trim(),
      detalhe: await detailOf(ctx, ctx.pool, args.id),
    };
  }
  const respostas = [...before.respostas, ...(args.resposta !== undefined ? [args.resposta] : [])];
  // 2. The model call, outside any transaction (it can take seconds).
  const outcome = await ctx.rerunner.run({
    texto: before.texto,
    respostas,
    chegada: before.chegada,
    ...(args.signal ? { signal: args.signal } : {}),
  });
  // 3. Store the new round on the same item, still held by the agent, with its audit entry.
  return withTransaction(ctx.pool, async (c) => {
    await lockHeld(c, args.id, args.token);
    const now = await loadRerunSource(c, args.id);
    if (now.tentativas !== before.tentativas || now.status !== before.status) {
      throw new AppError(
        'conflito',
        'O pedido mudou enquanto o modelo respondia. Recarregue e tente de novo.',
      );
    }
    await storeRound(c, args.id, outcome, args.resposta ?? null);
    await writeAudit(c, {
      operador,
      acao: args.resposta !== undefined ? 'extracao_complementada' : 'reprocessada',
      extracaoId: args.id,
      antes: { status: before.status, dados: before.dados, erros: before.erros },
      depois: { status: outcome.status, dados: outcome.dados, erros: outcome.erros },
      detalhes: {
        tentativas: outcome.attempts.length,
        ...(args.resposta !== undefined ? { resposta: args.resposta } : {}),
      },
    });
    return { executado: true, detalhe: await detailOf(ctx, c, args.id) };
  });
}

/** Records the merchant's answer and re-runs the extraction on the text plus the answer. */
export function recordAnswer(
  ctx: QueueContext,
  args: { id: number; token: string; resposta: string; signal?: AbortSignal | undefined },
): Promise<RerunResult> {
  // A card number is never stored (#38.1): the answer keeps [CARTAO_n] instead.
  return rerun(ctx, { ...args, resposta: removeCardNumbers(args.resposta).texto });
}

/** Runs the extraction again on the original text. */
export function reprocess(
  ctx: QueueContext,
  args: { id: number; token: string; signal?: AbortSignal | undefined },
): Promise<RerunResult> {
  return rerun(ctx, args);
}
