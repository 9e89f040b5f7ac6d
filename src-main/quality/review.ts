import type pg from 'pg';
import { AppError } from '@shared/errors';
import type {
  AccuracyFigure,
  CamposCobranca,
  QualityJudgeInput,
  QualityReport,
  QualitySample,
  QualityVersionReport,
} from '@shared/contract/quality';
import { CAMPOS_QUALIDADE, formatAccuracy, wilson95, type CampoQualidade } from '@shared/quality';
import { withTransaction } from '../db/tx';
import { writeAudit } from '../queue/audit';
import { DEFAULT_QUALITY_SAMPLING, type QualitySampling } from '../settings/quality-sampling';

type Db = pg.Pool | pg.PoolClient;

interface SampleRow {
  cobranca_id: string;
  extracao_id: string;
  merchant_nome: string;
  texto: string;
  modelo: string;
  versao_prompt: string;
  origem: QualitySample['origem'];
  motivo: QualitySample['motivo'];
  sorteada_em: Date;
  dados: Record<string, unknown> | null;
  valor_centavos: string;
  parcelas: number;
  metodo: string;
  cliente_nome: string;
  vencimento: string;
  descricao: string | null;
  criada_por: string;
  pendentes: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) ? v : null;

/** The model's fields as stored (any shape it sent: what is not a value of the type is null). */
function extracted(d: Record<string, unknown> | null): CamposCobranca {
  const o = d ?? {};
  return {
    valor_centavos: int(o.valor_centavos),
    parcelas: int(o.parcelas),
    metodo: str(o.metodo),
    cliente_nome: str(o.cliente_nome),
    vencimento: str(o.vencimento),
    descricao: str(o.descricao),
  };
}

/**
 * The next sample waiting for a supervisor (the oldest first; after `depoisDe` when skipping),
 * with the merchant's original message, the model's fields and the charged ones; null when none.
 */
export async function nextSample(
  db: Db,
  args: { depoisDe?: number | undefined } = {},
): Promise<QualitySample | null> {
  const r = await db.query<SampleRow>({
    text: `SELECT a.cobranca_id, a.extracao_id, m.nome AS merchant_nome, e.texto, a.modelo,
                  a.versao_prompt, a.origem, a.motivo, a.sorteada_em, e.dados, c.valor_centavos,
                  c.parcelas, c.metodo, c.cliente_nome, c.vencimento::text AS vencimento,
                  c.descricao, c.criada_por,
                  (SELECT count(*) FROM qualidade_amostras WHERE julgada_em IS NULL) AS pendentes
             FROM qualidade_amostras a
             JOIN cobrancas c ON c.id = a.cobranca_id
             JOIN extracoes e ON e.id = a.extracao_id
             JOIN merchants m ON m.id = c.merchant_id
            WHERE a.julgada_em IS NULL AND ($1::bigint IS NULL OR a.cobranca_id > $1)
            ORDER BY a.cobranca_id
            LIMIT 1`,
    values: [args.depoisDe ?? null],
  });
  const row = r.rows[0];
  if (!row) return null;
  return {
    cobrancaId: Number(row.cobranca_id),
    extracaoId: Number(row.extracao_id),
    merchantNome: row.merchant_nome,
    texto: row.texto,
    modelo: row.modelo,
    versaoPrompt: row.versao_prompt,
    origem: row.origem,
    motivo: row.motivo,
    sorteadaEm: row.sorteada_em.toISOString(),
    extraidos: extracted(row.dados),
    finais: {
      valor_centavos: Number(row.valor_centavos),
      parcelas: row.parcelas,
      metodo: row.metodo,
      cliente_nome: row.cliente_nome,
      vencimento: row.vencimento,
      descricao: row.descricao,
    },
    criadaPor: row.criada_por,
    pendentes: Number(row.pendentes),
  };
}

/**
 * Records a supervisor's judgement of a sample — every field right or wrong — with who and when,
 * and its audit entry, in one transaction. A sample already judged is refused (conflito) naming
 * who judged it: a judgement is never overwritten.
 */
export async function judgeSample(
  pool: pg.Pool,
  args: QualityJudgeInput & { operador: string },
): Promise<{ julgadaPor: string; julgadaEm: string }> {
  return withTransaction(pool, (c) => judgeInTx(c, args));
}

/** `judgeSample` inside the caller's transaction (the quality review's cancel-and-redo too). */
export async function judgeInTx(
  c: pg.PoolClient,
  args: QualityJudgeInput & { operador: string },
): Promise<{ julgadaPor: string; julgadaEm: string }> {
  const cur = await c.query<{ extracao_id: string; julgada_por: string | null }>({
    text: `SELECT extracao_id, julgada_por FROM qualidade_amostras
              WHERE cobranca_id = $1 FOR UPDATE`,
    values: [args.cobrancaId],
  });
  const row = cur.rows[0];
  if (!row) {
    throw new AppError(
      'nao_encontrado',
      `A cobrança ${args.cobrancaId} não está entre as amostras de qualidade.`,
    );
  }
  if (row.julgada_por !== null) {
    throw new AppError(
      'conflito',
      `A amostra da cobrança ${args.cobrancaId} já foi julgada por ${row.julgada_por}.`,
    );
  }
  await c.query({
    text: `INSERT INTO qualidade_julgamentos (cobranca_id, campo, certo)
             SELECT $1, campo, certo FROM unnest($2::text[], $3::boolean[]) AS j (campo, certo)`,
    values: [args.cobrancaId, [...CAMPOS_QUALIDADE], CAMPOS_QUALIDADE.map((k) => args.campos[k])],
  });
  const upd = await c.query<{ julgada_em: Date }>({
    text: `UPDATE qualidade_amostras SET julgada_por = $2, julgada_em = now()
              WHERE cobranca_id = $1 RETURNING julgada_em`,
    values: [args.cobrancaId, args.operador],
  });
  await writeAudit(c, {
    operador: args.operador,
    acao: 'qualidade_julgada',
    extracaoId: Number(row.extracao_id),
    depois: args.campos,
    detalhes: { cobranca_id: args.cobrancaId },
  });
  return { julgadaPor: args.operador, julgadaEm: upd.rows[0]!.julgada_em.toISOString() };
}

function figure(acertos: number, n: number): AccuracyFigure {
  const w = wilson95(acertos, n);
  return { ...w, texto: formatAccuracy(w) };
}

/**
 * The measured accuracy of the extraction per (model, prompt version) and per field, from the
 * supervisors' judgements, each with its Wilson 95% interval; also every field together, the
 * charges with every field right and the error rate of the automatic ones. The one function
 * behind the report's tab and `balcao fila qualidade`.
 */
export async function qualityReport(
  db: Db,
  cfg: QualitySampling = DEFAULT_QUALITY_SAMPLING,
): Promise<QualityReport> {
  const [versoes, campos] = await Promise.all([
    db.query<{
      modelo: string;
      versao_prompt: string;
      amostras: string;
      julgadas: string;
      corretas: string;
      automaticas: string;
      automaticas_erradas: string;
    }>(
      `SELECT a.modelo, a.versao_prompt, count(*) AS amostras, count(a.julgada_em) AS julgadas,
              count(*) FILTER (WHERE a.julgada_em IS NOT NULL AND NOT w.algum_errado) AS corretas,
              count(*) FILTER (WHERE a.julgada_em IS NOT NULL AND a.origem = 'automatica')
                AS automaticas,
              count(*) FILTER (WHERE a.julgada_em IS NOT NULL AND a.origem = 'automatica'
                                 AND w.algum_errado) AS automaticas_erradas
         FROM qualidade_amostras a
         CROSS JOIN LATERAL (
           SELECT coalesce(bool_or(NOT j.certo), false) AS algum_errado
             FROM qualidade_julgamentos j WHERE j.cobranca_id = a.cobranca_id) w
        GROUP BY a.modelo, a.versao_prompt
        ORDER BY a.modelo, a.versao_prompt`,
    ),
    db.query<{ modelo: string; versao_prompt: string; campo: string; n: string; acertos: string }>(
      `SELECT a.modelo, a.versao_prompt, j.campo, count(*) AS n,
              count(*) FILTER (WHERE j.certo) AS acertos
         FROM qualidade_julgamentos j
         JOIN qualidade_amostras a ON a.cobranca_id = j.cobranca_id
        GROUP BY a.modelo, a.versao_prompt, j.campo`,
    ),
  ]);
  const key = (m: string, v: string) => `${m}\u0000${v}`;
  const porCampo = new Map<string, { n: number; acertos: number }>();
  for (const r of campos.rows) {
    porCampo.set(`${key(r.modelo, r.versao_prompt)}\u0000${r.campo}`, {
      n: Number(r.n),
      acertos: Number(r.acertos),
    });
  }
  let pendentes = 0;
  const out: QualityVersionReport[] = versoes.rows.map((v) => {
    pendentes += Number(v.amostras) - Number(v.julgadas);
    let k = 0;
    let n = 0;
    const cs = CAMPOS_QUALIDADE.map((campo: CampoQualidade) => {
      const f = porCampo.get(`${key(v.modelo, v.versao_prompt)}\u0000${campo}`) ?? {
        n: 0,
        acertos: 0,
      };
      k += f.acertos;
      n += f.n;
      return { campo, ...figure(f.acertos, f.n) };
    });
    return {
      modelo: v.modelo,
      versaoPrompt: v.versao_prompt,
      amostras: Number(v.amostras),
      julgadas: Number(v.julgadas),
      campos: cs,
      todosCampos: figure(k, n),
      cobrancasCorretas: figure(Number(v.corretas), Number(v.julgadas)),
      errosAutomaticas: figure(Number(v.automaticas_erradas), Number(v.automaticas)),
    };
  });
  return { percentual: cfg.percentual, inicial: cfg.inicial, pendentes, versoes: out };
}
