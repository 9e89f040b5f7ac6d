import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import cliProgress from 'cli-progress';
import { ruleErrorText } from '@shared/charge';
import { isAppError } from '@shared/errors';
import type { ExtractionStatus } from '@shared/extraction-types';
import { formatBRL } from '@shared/money';
import { formatDateBR, isIsoDate, weekdayName } from '@shared/time';
import { z } from '@shared/zod';
import { clockForLocalDate, type Clock } from '../../clock';
import { extractCharge, followUpExtraction, type ExtractionResult } from '../../extraction';
import { createClaudeClient } from '../../llm/client';
import { sumUso } from '../../llm/usage';
import type { CliContext } from '../context';
import { CliError, toCliError } from '../io';

export interface ExtractOpts {
  merchant: number;
  hoje?: string;
  json?: boolean;
  file?: string;
  concorrencia: number;
  complementar?: number;
}

/** The --json shape (issue 3): status, tentativas, dados, erros, alertas, uso, extracao_id. */
export function resultJson(r: ExtractionResult) {
  return {
    status: r.status,
    tentativas: r.attempts.length,
    dados: r.dados,
    erros: r.erros.map(ruleErrorText),
    alertas: r.alertas,
    uso: { ...r.uso, custo_estimado_usd: r.custo_estimado_usd },
    extracao_id: r.extracao_id,
    merchant_id: r.merchant_id,
    fila_estado: r.fila_estado,
    rodada: r.rodada,
    modelo: r.modelo,
    hoje: r.hoje,
    duracao_ms: r.duracao_ms,
    erros_detalhe: r.erros,
    historico_tentativas: r.attempts.map((a) => ({
      numero: a.number,
      erros: a.errors,
      uso: a.usage,
      stop_reason: a.stopReason,
      duracao_ms: a.durationMs,
    })),
  };
}

const n = (v: number) => v.toLocaleString('pt-BR');
const plural = (k: number, one: string, many: string) => `${n(k)} ${k === 1 ? one : many}`;

function humanResult(r: ExtractionResult): string {
  const d = r.dados;
  const lines = [
    `Status: ${r.status} (${plural(r.attempts.length, 'tentativa', 'tentativas')}${r.rodada > 1 ? `, rodada ${r.rodada}` : ''})`,
    `  Valor:      ${d.valor_centavos === null ? '—' : `${formatBRL(d.valor_centavos)} (${n(d.valor_centavos)} centavos)`}`,
    `  Método:     ${d.metodo ?? '—'}${d.parcelas === null ? '' : ` em ${d.parcelas}x`}`,
    `  Cliente:    ${d.cliente_nome ?? '—'}`,
    `  Vencimento: ${d.vencimento && isIsoDate(d.vencimento) ? `${formatDateBR(d.vencimento)} (${weekdayName(d.vencimento)})` : (d.vencimento ?? '—')}`,
    `  Descrição:  ${d.descricao ?? '—'}`,
  ];
  if (d.faltando.length) lines.push(`  Faltando:   ${d.faltando.join(', ')}`);
  for (const e of r.erros) lines.push(`  Erro: ${ruleErrorText(e)}`);
  for (const a of r.alertas) lines.push(`  Alerta: ${a.mensagem}`);
  const u = r.uso;
  const custo =
    r.custo_estimado_usd === null
      ? 'custo: modelo sem preço na tabela'
      : `custo estimado US$ ${r.custo_estimado_usd.toLocaleString('pt-BR', { minimumFractionDigits: 4, maximumFractionDigits: 6 })}`;
  lines.push(
    `  Uso: ${n(u.input_tokens)} tokens de entrada, ${n(u.output_tokens)} de saída, cache ${n(u.cache_read_input_tokens)} lidos / ${n(u.cache_creation_input_tokens)} gravados · ${custo} · ${r.modelo}`,
  );
  lines.push(
    r.extracao_id === null
      ? '  (resultado não gravado)'
      : `Extração #${r.extracao_id} gravada${r.fila_estado === 'aberta' ? ' e enviada à fila de revisão' : ' (sem revisão necessária)'}.`,
  );
  return lines.join('\n');
}

/** One batch line: `texto` plus optional merchant and reference date; extra keys allowed. */
const BatchLine = z.looseObject({
  texto: z.string().trim().min(1, 'texto vazio'),
  merchant_id: z.number().int().positive().optional(),
  merchant: z.number().int().positive().optional(),
  hoje: z.iso.date('hoje deve ser uma data AAAA-MM-DD').optional(),
});
type BatchItem = {
  linha: number;
  texto: string;
  merchantId: number;
  hoje: string | undefined;
  /** Idempotency key: merchant + text + which occurrence of that pair in the file. */
  chave: string;
};

/** `lote:` + sha256 of merchant, text and occurrence: the same line of a re-run, never another. */
function batchKey(merchantId: number, texto: string, occurrence: number): string {
  const h = createHash('sha256').update(`${merchantId}\n${occurrence}\n${texto}`).digest('hex');
  return `lote:${h}`;
}

export async function readBatch(path: string, defaultMerchant: number): Promise<BatchItem[]> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    throw new CliError(`Não foi possível ler o arquivo ${path}.`, 2);
  }
  const items: BatchItem[] = [];
  const seen = new Map<string, number>();
  const lines = raw.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new CliError(`${path}, linha ${i + 1}: JSON inválido.`, 2);
    }
    const p = BatchLine.safeParse(json);
    if (!p.success) {
      const msg = p.error.issues
        .map((is) => (is.path.length ? `${is.path.join('.')}: ${is.message}` : is.message))
        .join('; ');
      throw new CliError(`${path}, linha ${i + 1}: ${msg}.`, 2);
    }
    const merchantId = p.data.merchant_id ?? p.data.merchant ?? defaultMerchant;
    const pair = `${merchantId}\n${p.data.texto}`;
    const occurrence = (seen.get(pair) ?? 0) + 1;
    seen.set(pair, occurrence);
    items.push({
      linha: i + 1,
      texto: p.data.texto,
      merchantId,
      hoje: p.data.hoje,
      chave: batchKey(merchantId, p.data.texto, occurrence),
    });
  }
  if (items.length === 0) throw new CliError(`${path} não tem mensagens (uma por linha).`, 2);
  return items;
}

/** Runs `fn` over items with at most `limit` in flight; results in input order. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

type BatchOutcome =
  | { linha: number; ok: true; result: ExtractionResult }
  | { linha: number; ok: false; erro: string }
  | { linha: number; ok: 'ja'; extracaoId: number; status: ExtractionStatus };

/** Lines of an earlier run already stored (by key): a re-run skips them. */
async function alreadyStored(
  pool: pg.Pool,
  items: BatchItem[],
): Promise<Map<string, { id: number; status: ExtractionStatus }>> {
  const { query } = await import('../../db/tx');
  const rows = await query<{ chave_lote: string; id: number; status: ExtractionStatus }>(
    pool,
    'SELECT chave_lote, id::int AS id, status FROM extracoes WHERE chave_lote = ANY($1::text[])',
    [items.map((i) => i.chave)],
  );
  return new Map(rows.map((r) => [r.chave_lote, { id: r.id, status: r.status }]));
}

function outcomeLine(o: BatchOutcome): string {
  if (o.ok === 'ja') {
    return `linha ${o.linha}: já processada antes (${o.status}) → extração #${o.extracaoId}`;
  }
  return o.ok
    ? `linha ${o.linha}: ${o.result.status} (${plural(o.result.attempts.length, 'tentativa', 'tentativas')})${o.result.alertas.length ? ' com alerta de valor' : ''} → extração #${o.result.extracao_id ?? '—'}`
    : `linha ${o.linha}: erro — ${o.erro}`;
}

/**
 * A batch: lines stored by an earlier run are skipped (exactly once across re-runs); each line
 * that fails (a lost connection, an API error) fails alone. Without --json every line is printed
 * as it finishes, so a fault mid-batch leaves what was finished on screen before the error; if
 * the process is interrupted anyway, the last-resort handler prints the summary so far.
 */
async function runBatch(
  c: CliContext,
  pool: pg.Pool,
  items: BatchItem[],
  opts: ExtractOpts,
  run: (item: BatchItem) => Promise<ExtractionResult>,
): Promise<void> {
  const { onInterrupted } = await import('../../util/last-resort');
  const stored = await alreadyStored(pool, items);
  const bar = c.io.isTTY
    ? new cliProgress.SingleBar(
        {
          format:
            'Extraindo |{bar}| {value}/{total} mensagens · {falhas} com erro · ETA {eta_formatted}',
          hideCursor: true,
          clearOnComplete: true,
          // BALCAO_PROGRESSO=1 off a terminal: one line per redraw instead of nothing.
          noTTYOutput: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let falhas = 0;
  const done: BatchOutcome[] = [];
  const summary = (outcomes: BatchOutcome[], interrompido: boolean) => {
    const ok = outcomes.flatMap((o) => (o.ok === true ? [o.result] : []));
    const porStatus: Record<ExtractionStatus, number> = { completo: 0, incompleto: 0, falhou: 0 };
    for (const r of ok) porStatus[r.status]++;
    const ja = outcomes.filter((o) => o.ok === 'ja').length;
    const uso = sumUso(ok.map((r) => r.uso));
    const custo = ok.some((r) => r.custo_estimado_usd !== null)
      ? Math.round(ok.reduce((s, r) => s + (r.custo_estimado_usd ?? 0), 0) * 1e6) / 1e6
      : null;
    if (opts.json) {
      c.io.out(
        JSON.stringify({
          total: items.length,
          por_status: porStatus,
          com_erro: outcomes.filter((o) => o.ok === false).length,
          ja_processadas: ja,
          ...(interrompido ? { interrompido: true, concluidas: outcomes.length } : {}),
          uso: { ...uso, custo_estimado_usd: custo },
          resultados: [...outcomes]
            .sort((x, y) => x.linha - y.linha)
            .map((o) =>
              o.ok === true
                ? { linha: o.linha, ...resultJson(o.result) }
                : o.ok === 'ja'
                  ? {
                      linha: o.linha,
                      ja_processada: true,
                      extracao_id: o.extracaoId,
                      status: o.status,
                    }
                  : { linha: o.linha, erro: o.erro },
            ),
        }),
      );
    } else {
      c.io.out(
        `${plural(items.length, 'mensagem', 'mensagens')}${interrompido ? ` (${n(outcomes.length)} concluídas antes da interrupção)` : ''}: ${porStatus.completo} completo, ${porStatus.incompleto} incompleto, ${porStatus.falhou} falhou, ${falhas} com erro${ja ? `, ${ja} já processadas antes` : ''}.`,
      );
    }
  };
  const stopReport = onInterrupted(() => summary(done, true));
  bar?.start(items.length, 0, { falhas });
  // The bar counts finished lines, set from `done` only (one place): it can never pass the total.
  const finish = (o: BatchOutcome): BatchOutcome => {
    done.push(o);
    if (!opts.json) {
      if (bar) bar.stop();
      c.io.out(outcomeLine(o));
      if (bar) bar.start(items.length, done.length, { falhas });
    } else {
      bar?.update(done.length, { falhas });
    }
    return o;
  };
  let outcomes: BatchOutcome[];
  try {
    outcomes = await mapWithConcurrency<BatchItem, BatchOutcome>(
      items,
      opts.concorrencia,
      async (item) => {
        const prev = stored.get(item.chave);
        if (prev) {
          return finish({ linha: item.linha, ok: 'ja', extracaoId: prev.id, status: prev.status });
        }
        try {
          const result = await run(item);
          return finish({ linha: item.linha, ok: true, result });
        } catch (e) {
          falhas++;
          if (!isAppError(e)) c.logger.error({ err: e, linha: item.linha }, 'falha no lote');
          return finish({ linha: item.linha, ok: false, erro: toCliError(e).message });
        }
      },
    );
  } finally {
    stopReport();
  }
  bar?.stop();
  summary(outcomes, false);
  if (falhas > 0) {
    // The summary above already says which lines failed: exit 1 without a second message.
    if (!opts.json) {
      c.io.err(
        `${plural(falhas, 'mensagem não foi processada', 'mensagens não foram processadas')} (veja acima).`,
      );
    }
    c.exitCode = 1;
  }
}

export async function extractAction(
  ctx: () => CliContext,
  texto: string | undefined,
  opts: ExtractOpts,
): Promise<void> {
  const c = ctx();
  if (opts.file && texto !== undefined) {
    throw new CliError('Use o texto OU --file, não os dois.', 2);
  }
  if (opts.file && opts.complementar) {
    throw new CliError('--complementar vale para uma extração por vez, não com --file.', 2);
  }
  if (!opts.file && (texto === undefined || texto.trim() === '')) {
    throw new CliError('Informe o texto do pedido entre aspas, ou --file mensagens.jsonl.', 2);
  }
  const zone = c.settings.get().timeZone;
  const clockFor = (hoje: string | undefined): Clock =>
    hoje ? clockForLocalDate(hoje, zone) : c.clock;
  // No key: say how to configure it, before touching the database (nothing stored).
  const client = createClaudeClient(c.settings);
  const batch = opts.file ? await readBatch(opts.file, opts.merchant) : undefined;
  const dbs = await c.databases();
  const deps = { settings: c.settings, pool: dbs.app, logger: c.logger, client };
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    if (!batch) {
      const showProgress = c.io.isTTY && !opts.json;
      const hooks = {
        signal: ac.signal,
        onAttempt: ({ attempt, maxAttempts }: { attempt: number; maxAttempts: number }) => {
          if (showProgress && attempt > 1) c.io.err(`  tentativa ${attempt} de ${maxAttempts}…`);
        },
      };
      const r = opts.complementar
        ? await followUpExtraction(
            { ...deps, clock: clockFor(opts.hoje) },
            { extracaoId: opts.complementar, resposta: texto ?? '', ...hooks },
          )
        : await extractCharge(
            { ...deps, clock: clockFor(opts.hoje) },
            { texto: texto ?? '', merchantId: opts.merchant, ...hooks },
          );
      c.io.out(opts.json ? JSON.stringify(resultJson(r)) : humanResult(r));
      return;
    }
    await runBatch(c, dbs.app, batch, opts, (item) =>
      extractCharge(
        { ...deps, clock: clockFor(item.hoje ?? opts.hoje) },
        {
          texto: item.texto,
          merchantId: item.merchantId,
          chaveLote: item.chave,
          signal: ac.signal,
        },
      ),
    );
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
