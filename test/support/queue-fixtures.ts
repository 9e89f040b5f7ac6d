import type pg from 'pg';
import { CHARGE_TEXT } from './charges';
import { fixedClock } from '../../src-main/clock';
import { extractionChargeRules, type ChargeRules } from '../../src-main/queue/rules';
import { createQueueService, type ExtractionRerunner } from '../../src-main/queue/service';
import { createMemorySettings } from '../../src-main/settings/memory';
import type {
  Alerta,
  DadosCobranca,
  ExtractionStatus,
  RuleError,
  Uso,
} from '../../src-shared/extraction-types';

export function dados(p: Partial<DadosCobranca> = {}): DadosCobranca {
  const d: DadosCobranca = {
    valor_centavos: 15000,
    parcelas: 3,
    metodo: 'cartao',
    cliente_nome: 'João Silva',
    vencimento: '2026-12-04',
    descricao: null,
    faltando: [],
    ...p,
  };
  if (!p.faltando) {
    d.faltando = (
      ['valor_centavos', 'parcelas', 'metodo', 'cliente_nome', 'vencimento'] as const
    ).filter((k) => d[k] === null);
  }
  return d;
}

export const USO: Uso = {
  input_tokens: 1500,
  output_tokens: 100,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 1400,
};

export interface FixtureExtraction {
  merchantId?: number;
  texto?: string;
  status?: ExtractionStatus;
  dados?: DadosCobranca | null;
  erros?: RuleError[];
  alertas?: Alerta[];
  /** Attempts: tool input and errors of each. Defaults to one attempt with `dados`. */
  tentativas?: { entrada: DadosCobranca | null; erros: RuleError[]; uso?: Uso }[];
  /** SQL expression or ISO instant for criada_em (default now()). */
  criadaEm?: string;
  filaEstado?: 'aberta' | 'concluida';
  custoUsd?: number;
}

export async function ensureMerchants(admin: pg.Pool, names: Record<number, string>) {
  for (const [id, nome] of Object.entries(names)) {
    await admin.query('INSERT INTO merchants (id, nome) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      Number(id),
      nome,
    ]);
  }
}

/** Inserts an extraction (as the engine would store it) with its attempts; returns its id. */
export async function insertExtraction(admin: pg.Pool, f: FixtureExtraction = {}): Promise<number> {
  const d = f.dados === undefined ? dados() : f.dados;
  const attempts = f.tentativas ?? [{ entrada: d, erros: f.erros ?? [] }];
  const total = attempts.reduce(
    (s, a) => {
      const u = a.uso ?? USO;
      return {
        input_tokens: s.input_tokens + u.input_tokens,
        output_tokens: s.output_tokens + u.output_tokens,
        cache_read_input_tokens: s.cache_read_input_tokens + u.cache_read_input_tokens,
        cache_creation_input_tokens: s.cache_creation_input_tokens + u.cache_creation_input_tokens,
      };
    },
    {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  );
  const r = await admin.query<{ id: number }>({
    text: `INSERT INTO extracoes (merchant_id, texto, status, dados, erros, alertas, tentativas, modelo,
             uso, custo_estimado_usd, duracao_ms, hoje, fila_estado, criada_em, atualizada_em)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'claude-sonnet-4-5', $8, $9, 1200, '2026-11-30', $10,
             coalesce($11::timestamptz, now()), now())
           RETURNING id`,
    values: [
      f.merchantId ?? 1,
      f.texto ?? CHARGE_TEXT,
      f.status ?? 'falhou',
      d === null ? null : JSON.stringify(d),
      JSON.stringify(f.erros ?? []),
      JSON.stringify(f.alertas ?? []),
      attempts.length,
      JSON.stringify(total),
      f.custoUsd ?? 0.0123,
      f.filaEstado ?? 'aberta',
      f.criadaEm ?? null,
    ],
  });
  const id = r.rows[0]!.id;
  let n = 1;
  for (const a of attempts) {
    await admin.query({
      text: `INSERT INTO extracao_tentativas (extracao_id, numero, entrada, erros, uso, stop_reason, duracao_ms)
             VALUES ($1, $2, $3, $4, $5, 'tool_use', 400)`,
      values: [
        id,
        n++,
        a.entrada === null ? null : JSON.stringify(a.entrada),
        JSON.stringify(a.erros),
        JSON.stringify(a.uso ?? USO),
      ],
    });
  }
  return id;
}

export const PIX_PARCELAS: RuleError = {
  campo: 'parcelas',
  regra: 'parcelas_pix_boleto',
  mensagem: 'Pix e boleto aceitam só 1 parcela. Parcelamento só no cartão.',
};
export const VENC_PASSADO: RuleError = {
  campo: 'vencimento',
  regra: 'vencimento_passado',
  mensagem: 'O vencimento não pode ser uma data passada. Use hoje ou uma data futura.',
};

/** The instant the queue tests run at (the clock of their rules' "today"). */
export const QUEUE_TEST_NOW = new Date('2026-11-30T15:00:00Z');

/**
 * The review queue as one agent sees it in the queue tests: `operator` (default Ana) in São
 * Paulo at QUEUE_TEST_NOW, the extraction's charge rules, no model unless `rerunner` is given.
 */
export function queueFor(
  pool: pg.Pool,
  opts: {
    operator?: string;
    rerunner?: ExtractionRerunner | null;
    rules?: ChargeRules;
    ttlMs?: number;
  } = {},
) {
  return createQueueService({
    pool,
    clock: fixedClock(QUEUE_TEST_NOW),
    settings: createMemorySettings(
      { operator: opts.operator ?? 'Ana', timeZone: 'America/Sao_Paulo' },
      {},
    ),
    rules: opts.rules ?? extractionChargeRules,
    rerunner: opts.rerunner ?? null,
    ...(opts.ttlMs ? { leaseTtlMs: opts.ttlMs } : {}),
  });
}

/**
 * The queue's default order (#39.2) in SQL over `extracoes` (alias `e`) with the default minutes
 * (30 / 120 / 1440): the nearest deadline first, ties by id — for tests that pick "the first row".
 */
export const DEADLINE_ORDER_SQL = `coalesce(e.situacao_desde, e.aguardando_desde, e.criada_em)
  + CASE e.situacao WHEN 'falhou' THEN 30 WHEN 'aguardando_lojista' THEN 1440 ELSE 120 END
    * interval '1 minute', e.id`;
