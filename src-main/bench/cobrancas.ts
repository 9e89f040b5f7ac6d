/**
 * `balcao bench-cobrancas` (#36): the Pix dispatch under load, for real — a marked benchmark
 * database (recreated each run; a database the bench did not create is refused), the fake PSP
 * over HTTPS + mutual TLS with a latency per call (fake-psp.ts, the tests' own: every body checked
 * against the spec's schemas), the product's own PSP worker (pg-boss queue `cobrancas`, claims,
 * retries) and API Pix client (token cached). N charges are
 * confirmed by `agentes` concurrent agents through the queue's own creation path
 * (`createChargeInTx`: the charge, its dispatch row, event and job in one statement); the run ends
 * when every charge is `registrada`. Then the books: confirm → registrada per charge (server
 * clock: cobrancas.criada_em → cobrancas_envios.registrada_em), throughput, calls per charge,
 * duplicates at the PSP (must be 0).
 */
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import type pg from 'pg';
import { systemClock } from '../clock';
import { createPool } from '../db/pool';
import { APP_ROLE } from '../db/roles';
import { withTransaction } from '../db/tx';
import { urlForDatabase, urlForRole } from '../db/urls';
import { startBoss } from '../intake/jobs';
import { createPixClient } from '../psp/client';
import { pspConfig } from '../psp/config';
import { startPspWorker } from '../psp/worker';
import { createChargeInTx } from '../queue/actions';
import { extractionChargeRules } from '../queue/rules';
import { createMemorySettings } from '../settings/memory';
import { silentLogger } from '../util/logger';
import { BENCH_COBRANCAS_DB } from './constants';
import { startFakePsp } from './fake-psp';
import { freshDatabase } from './intake';

export { BENCH_COBRANCAS_DB };

export interface CobrancasBenchOptions {
  serverUrl: string;
  appUrl?: string;
  banco: string;
  cobrancas: number;
  latenciaMs: number;
  /** Jobs of the `cobrancas` queue in parallel (the worker's concurrency). */
  concorrencia: number;
  /** Agents confirming charges at the same time. */
  agentes: number;
  prazoS: number;
  timeZone: string;
  onProgress?: (t: string) => void;
}

export interface CobrancasBenchResult {
  cobrancas: number;
  latencia_psp_ms: number;
  concorrencia: number;
  agentes: number;
  registradas: number;
  /** confirm → registrada, ms (server clock). */
  confirmar_ate_registrada_ms: { p50: number; p95: number; max: number };
  duracao_s: number;
  vazao_cobrancas_s: number;
  chamadas: { token: number; put: number; get: number; conflito_409: number; outras: number };
  chamadas_por_cobranca: number;
  puts_por_cobranca: number;
  tokens_por_cobranca: number;
  duplicadas: number;
  ok: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function pct(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

async function confirmAll(
  o: CobrancasBenchOptions,
  app: pg.Pool,
  admin: pg.Pool,
  vencimento: string,
): Promise<void> {
  const ctx = {
    rules: extractionChargeRules,
    clock: systemClock,
    settings: createMemorySettings({ timeZone: o.timeZone, operator: 'bench' }, {}),
  };
  let next = 0;
  const agent = async () => {
    for (;;) {
      const i = next++;
      if (i >= o.cobrancas) return;
      const dados = {
        valor_centavos: 1000 + (i % 5000) * 7,
        parcelas: 1,
        metodo: 'pix' as const,
        cliente_nome: `Cliente ${i + 1}`,
        vencimento,
        descricao: `Pedido ${i + 1}`,
        faltando: [],
      };
      const merchant = (i % 20) + 1;
      const ins = await admin.query<{ id: number }>({
        text: `INSERT INTO extracoes (merchant_id, texto, status, dados, erros, alertas, tentativas,
                 modelo, uso, custo_estimado_usd, duracao_ms, hoje, fila_estado)
               VALUES ($1, $2, 'completo', $3, '[]', '[]', 1, 'bench', '{}', 0, 0, $4, 'aberta')
               RETURNING id`,
        values: [merchant, `pix de ${i + 1}`, JSON.stringify(dados), vencimento],
      });
      const row = { id: ins.rows[0]!.id, merchant_id: merchant, dados };
      await withTransaction(app, (c) => createChargeInTx(ctx, c, row, dados, 'bench'));
    }
  };
  await Promise.all(Array.from({ length: o.agentes }, agent));
}

export async function runCobrancasBench(o: CobrancasBenchOptions): Promise<CobrancasBenchResult> {
  const say = o.onProgress ?? (() => undefined);
  say(`preparando o banco ${o.banco}`);
  const adminUrl = await freshDatabase(o.serverUrl, o.banco);
  const appUrl = o.appUrl ? urlForDatabase(o.appUrl, o.banco) : urlForRole(adminUrl, APP_ROLE);
  const admin = createPool(adminUrl, { max: 4, applicationName: 'balcao-bench-cobrancas' });
  const app = createPool(appUrl, {
    max: o.concorrencia + o.agentes + 4,
    applicationName: 'balcao-bench-cobrancas-app',
  });
  const psp = await startFakePsp({ latenciaMs: o.latenciaMs, registrar: false });
  const cfg = pspConfig({
    BALCAO_PSP_URL: psp.url,
    BALCAO_PSP_CLIENT_ID: psp.clientId,
    BALCAO_PSP_CLIENT_SECRET: psp.clientSecret,
    BALCAO_PSP_CERT: psp.files.cert,
    BALCAO_PSP_KEY: psp.files.key,
    BALCAO_PSP_CA: psp.files.ca,
  });
  if (!cfg) throw new AppError('interno', 'bench: PSP sem configuração.');
  const client = createPixClient(cfg, { clock: systemClock });
  try {
    await admin.query(
      `UPDATE merchants SET chave_pix = 'bench' || id || '@loja.com.br' WHERE chave_pix IS NULL`,
    );
    const boss = await startBoss(app);
    const worker = await startPspWorker({
      pool: app,
      boss,
      client,
      clock: systemClock,
      zone: o.timeZone,
      logger: silentLogger,
      leaseMs: 30_000,
      concurrency: o.concorrencia,
      sweepS: 3600,
    });
    const vencimento = localDate(new Date(Date.now() + 7 * 86_400_000), o.timeZone);
    const deadline = Date.now() + o.prazoS * 1000;
    try {
      say(`confirmando ${o.cobrancas} cobranças (${o.agentes} agentes)`);
      await confirmAll(o, app, admin, vencimento);
      let last = -1;
      for (;;) {
        const r = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM cobrancas_envios WHERE estado = 'registrada'",
        );
        const n = r.rows[0]!.n;
        if (n >= o.cobrancas) break;
        if (n !== last) say(`${n}/${o.cobrancas} registradas`);
        last = n;
        if (Date.now() > deadline) break;
        await sleep(200);
      }
    } finally {
      await worker.stop();
      await boss.stop({ graceful: false, close: false, wait: true });
    }
    const rows = await admin.query<{ ms: number; criada: Date; registrada: Date }>(
      `SELECT extract(epoch FROM e.registrada_em - c.criada_em) * 1000 AS ms,
              c.criada_em AS criada, e.registrada_em AS registrada
         FROM cobrancas c JOIN cobrancas_envios e ON e.cobranca_id = c.id
        WHERE e.estado = 'registrada'`,
    );
    const ms = rows.rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const first = Math.min(...rows.rows.map((r) => r.criada.getTime()));
    const lastReg = Math.max(...rows.rows.map((r) => r.registrada.getTime()));
    const duracao = rows.rows.length ? (lastReg - first) / 1000 : 0;
    const duplicadas = [...psp.created.values()].reduce((s, n) => s + Math.max(0, n - 1), 0);
    const c = psp.counts;
    const total = c.tokens + c.puts + c.gets + c.outras;
    const n = o.cobrancas;
    const round = (x: number, d = 2) => Number(x.toFixed(d));
    return {
      cobrancas: n,
      latencia_psp_ms: o.latenciaMs,
      concorrencia: o.concorrencia,
      agentes: o.agentes,
      registradas: rows.rows.length,
      confirmar_ate_registrada_ms: {
        p50: round(pct(ms, 50), 1),
        p95: round(pct(ms, 95), 1),
        max: round(ms[ms.length - 1] ?? 0, 1),
      },
      duracao_s: round(duracao),
      vazao_cobrancas_s: round(duracao > 0 ? rows.rows.length / duracao : 0),
      chamadas: {
        token: c.tokens,
        put: c.puts,
        get: c.gets,
        conflito_409: c.conflitos,
        outras: c.outras,
      },
      chamadas_por_cobranca: round(total / n, 3),
      puts_por_cobranca: round(c.puts / n, 3),
      tokens_por_cobranca: round(c.tokens / n, 4),
      duplicadas,
      ok: duplicadas === 0 && rows.rows.length === n && psp.created.size === n,
    };
  } finally {
    client.close();
    await Promise.allSettled([admin.end(), app.end(), psp.close()]);
  }
}
