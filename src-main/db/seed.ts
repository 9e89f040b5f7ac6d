import type pg from 'pg';
import { DateTime } from 'luxon';
import { AppError } from '@shared/errors';
import { addDays, localDate } from '@shared/time';
import type { DadosCobranca, Uso } from '@shared/extraction-types';
import { insertAttempts } from '../extraction/attempts';
import { sumUso } from '../llm/usage';
import { DEMO_MESSAGES } from './demo-messages';
import { mulberry32, normal, weighted } from './prng';

export interface SeedOptions {
  /** Reference instant: sales span the 18 months up to it. */
  now: Date;
  timeZone: string;
  merchants?: number;
  transactions?: number;
  seed?: number;
  /** Called after each batch with rows written so far. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Reload even when the database has history (audit trail, question logs: append-only rows
   * that are never deleted). The history and the rows it points to are kept; sales and
   * merchant names are reloaded.
   */
  forcar?: boolean;
}

/** Rows that a reload can never delete (append-only for every role). */
async function historyCounts(
  client: pg.PoolClient,
): Promise<{ auditoria: number; consultas: number }> {
  const r = await client.query<{ auditoria: number; consultas: number }>(
    `SELECT (SELECT count(*) FROM auditoria)::int AS auditoria,
            ((SELECT count(*) FROM consultas_vendas)
             + coalesce((SELECT count(*) FROM consultas_livres), 0))::int AS consultas`,
  );
  return r.rows[0] ?? { auditoria: 0, consultas: 0 };
}

export interface SeedResult {
  merchants: number;
  transactions: number;
  extractions: number;
}

export { DEFAULT_SEED_MERCHANTS, DEFAULT_SEED_TRANSACTIONS } from './seed-constants';
import { DEFAULT_SEED_MERCHANTS, DEFAULT_SEED_TRANSACTIONS } from './seed-constants';

const PREFIXOS = [
  'Padaria',
  'Mercadinho',
  'Farmácia',
  'Pet Shop',
  'Açaí',
  'Oficina',
  'Salão',
  'Restaurante',
  'Loja',
  'Empório',
  'Ótica',
  'Papelaria',
  'Pizzaria',
  'Hortifruti',
  'Barbearia',
  'Sorveteria',
];
const NOMES = [
  'São Jorge',
  'Pão de Mel',
  'Boa Vista',
  'Dona Benta',
  'Estrela do Norte',
  'Bom Jesus',
  'Sabor Mineiro',
  'Recanto',
  'Nossa Senhora Aparecida',
  'Central',
  'Ipanema',
  'Vila Madalena',
  'Itapuã',
  'Do Zé',
  'Beira-Mar',
  'Santa Luzia',
  'Primavera',
  'Jardim Botânico',
];

const MODALIDADES = [
  ['debito', 30],
  ['credito_avista', 24],
  ['credito_parcelado', 14],
  ['pix', 32],
] as const;
const BANDEIRAS = [
  ['visa', 40],
  ['mastercard', 36],
  ['elo', 14],
  ['amex', 5],
  ['hipercard', 5],
] as const;
const STATUS = [
  ['aprovada', 92],
  ['negada', 5],
  ['estornada', 2.2],
  ['chargeback', 0.8],
] as const;
/** Monday..Sunday weights. */
const WEEKDAY_WEIGHT = [0.85, 0.9, 0.95, 1.0, 1.25, 1.4, 0.65];
/** Hour-of-day weights (local). */
const HOUR_WEIGHT = [
  0.02, 0.01, 0.01, 0.01, 0.01, 0.02, 0.1, 0.35, 0.7, 0.9, 1.0, 1.2, 1.5, 1.3, 1.0, 0.95, 1.0, 1.2,
  1.45, 1.5, 1.2, 0.8, 0.4, 0.1,
];
const HOURS = HOUR_WEIGHT.map((w, h) => [h, w] as const);

function fee(modalidade: string, parcelas: number): number {
  switch (modalidade) {
    case 'debito':
      return 0.0149;
    case 'credito_avista':
      return 0.0299;
    case 'credito_parcelado':
      return 0.0349 + 0.011 * (parcelas - 1);
    default:
      return 0.0099;
  }
}

export function merchantName(i: number): string {
  const p = PREFIXOS[i % PREFIXOS.length] ?? 'Loja';
  const n = NOMES[Math.floor(i / PREFIXOS.length + i) % NOMES.length] ?? 'Central';
  const suffix = i >= PREFIXOS.length * NOMES.length ? ` ${Math.floor(i / PREFIXOS.length)}` : '';
  return `${p} ${n}${suffix}`;
}

/**
 * Loads deterministic demo data: merchants, ~18 months of sales with weekday/hour seasonality
 * and a realistic mix, and a set of pt-BR charge messages already run through the extraction.
 * Existing rows are replaced (one transaction: all or nothing).
 */
export async function seedDemo(pool: pg.Pool, opts: SeedOptions): Promise<SeedResult> {
  const nMerchants = opts.merchants ?? DEFAULT_SEED_MERCHANTS;
  const nTx = opts.transactions ?? DEFAULT_SEED_TRANSACTIONS;
  const rand = mulberry32(opts.seed ?? 20260301);
  const zone = opts.timeZone;
  const today = localDate(opts.now, zone);
  const firstDay = DateTime.fromISO(today, { zone }).minus({ months: 18 }).toISODate() ?? today;
  const nowMs = opts.now.getTime();

  // Day table: local day start instants and weights (weekday × slow growth trend).
  const days: { start: number; weight: number }[] = [];
  for (let day = firstDay; day <= today; day = addDays(day, 1)) {
    const dt = DateTime.fromISO(day, { zone });
    const trend = 0.8 + 0.4 * (days.length / 550);
    const december = dt.month === 12 ? 1.35 : 1;
    days.push({
      start: dt.startOf('day').toMillis(),
      weight: (WEEKDAY_WEIGHT[dt.weekday - 1] ?? 1) * trend * december,
    });
  }
  const cumDays: number[] = [];
  let acc = 0;
  for (const d of days) cumDays.push((acc += d.weight));
  const pickDay = () => {
    const r = rand() * acc;
    let lo = 0;
    let hi = cumDays.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumDays[mid] ?? 0) < r) lo = mid + 1;
      else hi = mid;
    }
    return days[lo] ?? days[0]!;
  };

  // Zipf-like merchant sizes.
  const weights = Array.from({ length: nMerchants }, (_, i) => 1 / Math.pow(i + 1, 1.1));
  const wSum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w / wSum) * nTx));
  counts[0] = (counts[0] ?? 0) + (nTx - counts.reduce((a, b) => a + b, 0));
  const ticket = Array.from({ length: nMerchants }, () => 3000 + Math.floor(rand() * 15000));

  const client = await pool.connect();
  let written = 0;
  try {
    await client.query('BEGIN');
    const hist = await historyCounts(client);
    const hasHistory = hist.auditoria > 0 || hist.consultas > 0;
    if (hasHistory && !opts.forcar) {
      const parts = [
        hist.auditoria
          ? `${hist.auditoria.toLocaleString('pt-BR')} ${hist.auditoria === 1 ? 'registro' : 'registros'} de auditoria`
          : '',
        hist.consultas
          ? `${hist.consultas.toLocaleString('pt-BR')} ${hist.consultas === 1 ? 'pergunta' : 'perguntas'} de vendas`
          : '',
      ].filter(Boolean);
      throw new AppError(
        'conflito',
        `Este banco já tem histórico (${parts.join(' e ')}), que é só de inserção e nunca é apagado. Para recarregar as vendas e os lojistas de demonstração mantendo esse histórico, use --forcar; para começar do zero, use um banco novo.`,
      );
    }
    const ids = Array.from({ length: nMerchants }, (_, i) => i + 1);
    const names = ids.map((i) => merchantName(i - 1));
    await client.query('TRUNCATE transacoes');
    let withExtractions = true;
    if (!hasHistory) {
      // Nothing refers to these rows: replace everything (auditoria is empty and append-only).
      await client.query('DELETE FROM cobrancas');
      await client.query('DELETE FROM extracao_tentativas');
      await client.query('DELETE FROM extracoes');
      await client.query('DELETE FROM merchants');
      await client.query({
        text: 'INSERT INTO merchants (id, nome) SELECT * FROM unnest($1::bigint[], $2::text[])',
        values: [ids, names],
      });
    } else {
      // History points at merchants and extractions: keep those rows, rename the demo merchants
      // in place, and add the demo messages only to a queue that has none.
      await client.query({
        text: `INSERT INTO merchants (id, nome) SELECT * FROM unnest($1::bigint[], $2::text[])
               ON CONFLICT (id) DO UPDATE SET nome = EXCLUDED.nome`,
        values: [ids, names],
      });
      const ex = await client.query('SELECT EXISTS (SELECT 1 FROM extracoes) AS tem');
      withExtractions = !(ex.rows[0] as { tem: boolean }).tem;
    }

    const BATCH = 20_000;
    for (let m = 0; m < nMerchants; m++) {
      let left = counts[m] ?? 0;
      while (left > 0) {
        const n = Math.min(BATCH, left);
        left -= n;
        const cols = {
          merchant: new Array<number>(n),
          status: new Array<string>(n),
          modalidade: new Array<string>(n),
          bandeira: new Array<string | null>(n),
          parcelas: new Array<number>(n),
          bruto: new Array<number>(n),
          liquido: new Array<number>(n),
          em: new Array<string>(n),
        };
        for (let k = 0; k < n; k++) {
          const modalidade = weighted(rand, MODALIDADES);
          const parcelas =
            modalidade === 'credito_parcelado' ? 2 + Math.floor(Math.pow(rand(), 2) * 11) : 1;
          const base = (ticket[m] ?? 5000) * (modalidade === 'credito_parcelado' ? 3 : 1);
          const bruto = Math.max(100, Math.round(base * Math.exp(0.8 * normal(rand))));
          const day = pickDay();
          const hour = weighted(rand, HOURS);
          let at = day.start + hour * 3_600_000 + Math.floor(rand() * 3_600_000);
          if (at > nowMs) at = day.start + Math.floor(rand() * Math.max(1, nowMs - day.start));
          cols.merchant[k] = m + 1;
          cols.status[k] = weighted(rand, STATUS);
          cols.modalidade[k] = modalidade;
          cols.bandeira[k] = modalidade === 'pix' ? null : weighted(rand, BANDEIRAS);
          cols.parcelas[k] = parcelas;
          cols.bruto[k] = bruto;
          cols.liquido[k] = bruto - Math.round(bruto * fee(modalidade, parcelas));
          cols.em[k] = new Date(at).toISOString();
        }
        await client.query({
          text: `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, parcelas,
                   valor_bruto_centavos, valor_liquido_centavos, aprovada_em)
                 SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[],
                   $6::bigint[], $7::bigint[], $8::timestamptz[])`,
          values: [
            cols.merchant,
            cols.status,
            cols.modalidade,
            cols.bandeira,
            cols.parcelas,
            cols.bruto,
            cols.liquido,
            cols.em,
          ],
        });
        written += n;
        opts.onProgress?.(written, nTx);
      }
    }

    const extractions = withExtractions
      ? await insertDemoExtractions(client, { today, nMerchants, rand, nowMs })
      : 0;
    await client.query('COMMIT');
    await client.query('ANALYZE transacoes');
    return { merchants: nMerchants, transactions: written, extractions };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    if ((e as { code?: string }).code === '23503') {
      // Another table (newer than this seed) refers to the rows being replaced.
      throw new AppError(
        'conflito',
        'Não foi possível recarregar os dados de demonstração: há registros que dependem dos lojistas ou mensagens atuais. Use --forcar para recarregar mantendo-os, ou um banco novo. Nada foi alterado.',
      );
    }
    throw e;
  } finally {
    client.release();
  }
}

async function insertDemoExtractions(
  client: pg.PoolClient,
  ctx: { today: string; nMerchants: number; rand: () => number; nowMs: number },
): Promise<number> {
  let i = 0;
  for (const msg of DEMO_MESSAGES) {
    const merchantId = (i % Math.min(ctx.nMerchants, 5)) + 1;
    const createdAt = new Date(ctx.nowMs - Math.floor(ctx.rand() * 3 * 86_400_000) - i * 60_000);
    const attempts = msg.tentativas.map((t, k) => {
      const dados: DadosCobranca = {
        ...t.dados,
        vencimento:
          typeof t.dados.vencimento === 'number'
            ? addDays(ctx.today, t.dados.vencimento)
            : t.dados.vencimento,
      };
      const uso: Uso = {
        input_tokens:
          k === 0 ? 1480 + Math.floor(ctx.rand() * 200) : 260 + Math.floor(ctx.rand() * 80),
        output_tokens: 90 + Math.floor(ctx.rand() * 40),
        cache_read_input_tokens: k === 0 ? 0 : 1420,
        cache_creation_input_tokens: k === 0 ? 1420 : 0,
      };
      return {
        dados,
        erros: t.erros,
        uso,
        duracao_ms: 900 + Math.floor(ctx.rand() * 1200),
      };
    });
    const last = attempts[attempts.length - 1]!;
    const total = sumUso(attempts.map((a) => a.uso));
    const cost =
      (total.input_tokens * 3 +
        total.output_tokens * 15 +
        total.cache_read_input_tokens * 0.3 +
        total.cache_creation_input_tokens * 3.75) /
      1e6;
    const needsReview = msg.status !== 'completo' || (msg.alertas?.length ?? 0) > 0;
    const r = await client.query({
      text: `INSERT INTO extracoes (merchant_id, texto, status, dados, erros, alertas, tentativas,
               modelo, uso, custo_estimado_usd, duracao_ms, hoje, fila_estado, criada_em, atualizada_em)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'claude-sonnet-4-5', $8, $9, $10, $11, $12, $13, $13)
             RETURNING id`,
      values: [
        merchantId,
        msg.texto,
        msg.status,
        JSON.stringify(last.dados),
        JSON.stringify(msg.status === 'falhou' ? last.erros : []),
        JSON.stringify(msg.alertas ?? []),
        attempts.length,
        JSON.stringify(total),
        cost.toFixed(6),
        attempts.reduce((s, a) => s + a.duracao_ms, 0),
        ctx.today,
        needsReview ? 'aberta' : 'concluida',
        createdAt.toISOString(),
      ],
    });
    const id = (r.rows[0] as { id: number }).id;
    await insertAttempts(
      client,
      id,
      attempts.map((a) => ({
        input: a.dados,
        details: a.erros,
        usage: a.uso,
        stopReason: 'tool_use',
        durationMs: a.duracao_ms,
      })),
      1,
      1,
      createdAt,
    );
    i++;
  }
  return DEMO_MESSAGES.length;
}
