import type { ExtractionDetail, QueueItem, QueuePage } from '@shared/contract/review';
import { AppError } from '@shared/errors';
import type { Alerta, DadosCobranca, ExtractionStatus, RuleError } from '@shared/extraction-types';
import type pg from 'pg';
import { mapDbError } from '../db/errors';

interface Row {
  id: number;
  merchant_id: number;
  merchant_nome: string;
  texto: string;
  status: ExtractionStatus;
  fila_estado: QueueItem['filaEstado'];
  tentativas: number;
  erros: RuleError[];
  alertas: Alerta[];
  dados: DadosCobranca | null;
  criada_em: Date;
}

/** The main reason an item needs a person: first failing rule, missing fields, or the alert. */
export function mainReason(r: Pick<Row, 'status' | 'erros' | 'alertas' | 'dados'>): string {
  if (r.status === 'falhou' && r.erros[0]) return r.erros[0].mensagem;
  if (r.status === 'incompleto') {
    const f = r.dados?.faltando ?? [];
    return f.length ? `Faltando: ${f.join(', ')}` : 'Informações faltando';
  }
  if (r.alertas[0]) return r.alertas[0].mensagem;
  return '';
}

function toItem(r: Row): QueueItem {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    merchantNome: r.merchant_nome,
    texto: r.texto,
    status: r.status,
    filaEstado: r.fila_estado,
    tentativas: r.tentativas,
    motivo: mainReason(r),
    criadaEm: r.criada_em.toISOString(),
    emAnalisePor: null,
    alertas: r.alertas,
  };
}

const COLS = `e.id, e.merchant_id, m.nome AS merchant_nome, e.texto, e.status, e.fila_estado,
  e.tentativas, e.erros, e.alertas, e.dados, e.criada_em`;

function encodeCursor(r: Row): string {
  return Buffer.from(JSON.stringify([r.criada_em.toISOString(), r.id])).toString('base64url');
}
function decodeCursor(c: string): [string, number] {
  try {
    const v = JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && typeof v[0] === 'string' && Number.isSafeInteger(v[1])) {
      return [v[0], v[1] as number];
    }
  } catch {
    // fall through
  }
  throw new AppError('entrada_invalida', 'Cursor de paginação inválido. Recarregue a lista.');
}

export interface ListQueueInput {
  status?: ExtractionStatus[] | undefined;
  merchantId?: number | undefined;
  search?: string | undefined;
  cursor?: string | null | undefined;
  limit: number;
}

function buildWhere(input: ListQueueInput, withStatus: boolean) {
  const where = [`e.fila_estado = 'aberta'`];
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  if (withStatus && input.status?.length) where.push(`e.status = ANY(${p(input.status)}::text[])`);
  if (input.merchantId) where.push(`e.merchant_id = ${p(input.merchantId)}`);
  if (input.search)
    where.push(`e.texto ILIKE ${p(`%${input.search.replace(/[\\%_]/g, '\\$&')}%`)}`);
  return { where, values, p };
}

/** Open queue items, newest first, keyset-paginated on (criada_em, id). */
export async function listQueue(pool: pg.Pool, input: ListQueueInput): Promise<QueuePage> {
  const { where, values, p } = buildWhere(input, true);
  if (input.cursor) {
    const [at, id] = decodeCursor(input.cursor);
    where.push(`(e.criada_em, e.id) < (${p(at)}::timestamptz, ${p(id)}::bigint)`);
  }
  const countQ = buildWhere(input, false);
  try {
    const rows = await pool.query<Row>({
      text: `SELECT ${COLS} FROM extracoes e JOIN merchants m ON m.id = e.merchant_id
             WHERE ${where.join(' AND ')} ORDER BY e.criada_em DESC, e.id DESC LIMIT ${p(input.limit + 1)}`,
      values,
    });
    const counts = await pool.query<{ status: ExtractionStatus; n: number }>({
      text: `SELECT e.status, count(*)::int AS n FROM extracoes e WHERE ${countQ.where.join(' AND ')} GROUP BY 1`,
      values: countQ.values,
    });
    const page = rows.rows.slice(0, input.limit);
    const last = page[page.length - 1];
    const c: QueuePage['counts'] = { completo: 0, incompleto: 0, falhou: 0 };
    for (const r of counts.rows) c[r.status] = r.n;
    return {
      items: page.map(toItem),
      nextCursor: rows.rows.length > input.limit && last ? encodeCursor(last) : null,
      counts: c,
    };
  } catch (e) {
    throw mapDbError(e);
  }
}

export async function getExtraction(pool: pg.Pool, id: number): Promise<ExtractionDetail> {
  let r: pg.QueryResult<Row>;
  try {
    r = await pool.query<Row>({
      text: `SELECT ${COLS} FROM extracoes e JOIN merchants m ON m.id = e.merchant_id WHERE e.id = $1`,
      values: [id],
    });
  } catch (e) {
    throw mapDbError(e);
  }
  const row = r.rows[0];
  if (!row) throw new AppError('nao_encontrado', `Extração ${id} não encontrada.`);
  return { ...toItem(row), dados: row.dados, erros: row.erros };
}
