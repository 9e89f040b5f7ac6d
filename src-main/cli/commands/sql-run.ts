import { checkAnalyticsReach } from '../../db/connect';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { guardPool } from '../../db/pool';
import { z } from '@shared/zod';
import { isAppError } from '@shared/errors';
import { readAnalytics } from '../../db/analytics';
import type { ExecResult, Linha } from '../../sqlguard/executor';
import { createFreeQueryLog, runFreeSql } from '../../sales/free-sql/run';
import { requireMerchant } from '../../sales/merchants';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { frescorToJson } from './ask';

const batchLine = z
  .object({
    merchant: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    sql: z.string().min(1).max(100_000),
  })
  .strict();

/**
 * Output of one accepted query: `{"colunas": [...], "linhas": [[...]]}` (+ `truncado` when the
 * caps cut it). Rows are arrays in column order: names may repeat (or be `__proto__`) and no
 * value is lost; bigints and numerics beyond a double's precision come as exact strings.
 */
function accepted(r: ExecResult): { colunas: string[]; linhas: Linha[]; truncado?: true } {
  const base = { colunas: r.colunas, linhas: r.linhas };
  return r.truncado ? { ...base, truncado: true } : base;
}

function table(r: ExecResult): string {
  if (r.linhas.length === 0) return 'Nenhuma linha.';
  const cols = r.colunas;
  const cell = (v: unknown) => (v === null ? '' : String(v));
  const width = cols.map((c, i) =>
    Math.min(40, Math.max(c.length, ...r.linhas.map((l) => cell(l[i] ?? null).length))),
  );
  const fmt = (vals: string[]) =>
    vals
      .map((v, i) => v.slice(0, 40).padEnd(width[i] ?? 0))
      .join(' | ')
      .trimEnd();
  const lines = [fmt(cols), width.map((w) => '-'.repeat(w)).join('-+-')];
  for (const l of r.linhas) lines.push(fmt(cols.map((_, i) => cell(l[i] ?? null))));
  lines.push(
    `${r.linhas.length} linha(s)${r.truncado ? ' (resultado cortado nos limites de linhas/bytes)' : ''}.`,
  );
  return lines.join('\n');
}

export async function sqlAction(
  ctx: () => CliContext,
  sql: string | undefined,
  opts: { merchant?: number; batch?: string; json?: boolean },
): Promise<void> {
  if (opts.batch !== undefined && (sql !== undefined || opts.merchant !== undefined)) {
    throw new CliError('use --batch sozinho, ou --merchant N com a consulta', 2);
  }
  if (opts.batch === undefined && (sql === undefined || opts.merchant === undefined)) {
    throw new CliError('informe --merchant N e a consulta (ou --batch ARQUIVO)', 2);
  }
  let text: string | undefined;
  if (opts.batch !== undefined) {
    try {
      text = await readFile(opts.batch, 'utf8');
    } catch {
      throw new CliError(`não foi possível ler o arquivo ${opts.batch}`, 2);
    }
  }
  const c = ctx();
  const dbs = await c.databases();
  // The analytics role must reach only Balcão's database (#12; off on shared test servers).
  await checkAnalyticsReach(dbs.admin, c.settings.get().analyticsOutrosBancos);
  // An unknown merchant is refused as `ask` and `extract` refuse it: the view would answer its
  // questions with zeros, which reads as "no sales" (#41.6).
  if (opts.merchant !== undefined) await requireMerchant(dbs.app, opts.merchant);
  const known = new Map<number, boolean>();
  const merchantKnown = async (id: number): Promise<boolean> => {
    let k = known.get(id);
    if (k === undefined) {
      try {
        await requireMerchant(dbs.app, id);
        k = true;
      } catch (e) {
        if (!isAppError(e) || e.code !== 'nao_encontrado') throw e;
        k = false;
      }
      known.set(id, k);
    }
    return k;
  };
  const s = c.settings.get();
  // A pool of ONE analytics connection: in a batch every query reuses it, which is
  // exactly what proves that nothing one query does leaks into the next.
  const pool = guardPool(new pg.Pool({ ...dbs.analytics.options, max: 1 }), {
    onConnectionError: (err) => c.logger.warn({ err }, 'conexão de análise perdida'),
  });
  const log = createFreeQueryLog(dbs.app, c.logger);
  const config = { timeoutMs: s.queryTimeoutMs, timeZone: s.timeZone };
  try {
    if (text === undefined) {
      // On the analytics endpoint (the replica when configured), with its freshness.
      const { value: r, frescor } = await readAnalytics(
        {
          dbs: { ...dbs, analytics: pool },
          settings: c.settings,
          clock: c.clock,
          logger: c.logger,
        },
        (pools, onFrescor) =>
          runFreeSql(
            pools.analytics,
            { ...config, onFrescor },
            { merchantId: opts.merchant as number, sql: sql as string, origem: 'cli' },
            log,
          ),
      );
      c.io.out(
        opts.json
          ? JSON.stringify({ ...accepted(r), ...frescorToJson(frescor ?? undefined) })
          : `${table(r)}${frescor ? `\n(${frescor.aviso})` : ''}`,
      );
      return;
    }
    let failed = 0;
    const lines = text.split(/\r?\n/);
    for (const [i, raw] of lines.entries()) {
      if (raw.trim() === '') continue;
      let out: unknown;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = undefined;
      }
      const item = batchLine.safeParse(parsed);
      if (!item.success) {
        out = { erro: `linha ${i + 1}: use {"merchant": N, "sql": "..."}` };
      } else if (!(await merchantKnown(item.data.merchant))) {
        out = { erro: `linha ${i + 1}: lojista ${item.data.merchant} não encontrado.` };
      } else {
        try {
          out = accepted(
            await runFreeSql(
              pool,
              config,
              { merchantId: item.data.merchant, sql: item.data.sql, origem: 'cli' },
              log,
            ),
          );
        } catch (e) {
          out = {
            erro: isAppError(e) ? e.message : 'Erro inesperado na consulta livre.',
          };
        }
      }
      if (typeof out === 'object' && out !== null && 'erro' in out) failed++;
      c.io.out(JSON.stringify(out));
    }
    // Every line printed its own result; a refused/failed line still makes the run exit 1.
    if (failed > 0) c.exitCode = 1;
  } finally {
    await pool.end();
  }
}
