import type { FilterOptions, QueuePage, ReviewListInput } from '@shared/contract/review';
import { SITUACOES, type Situacao } from '@shared/extraction-types';
import type pg from 'pg';
import { decodeCursor, encodeCursor } from './cursor';
import {
  DEADLINE_START_SQL,
  DEFAULT_DEADLINE_MINUTES,
  ITEM_COLS,
  deadlineMinutesOf,
  reasonLabel,
  toItem,
  type DeadlineMinutes,
  type ItemRow,
} from './rows';
import { query } from '../db/tx';

type ListInput = Omit<ReviewListInput, 'view' | 'sort'> &
  Partial<Pick<ReviewListInput, 'view' | 'sort'>>;

/** Escapes LIKE wildcards so the search is literal. */
function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, '\\$&')}%`;
}

function buildWhere(input: ListInput, values: unknown[], withStatus: boolean): string[] {
  const p = (v: unknown) => `$${values.push(v)}`;
  const where = [`e.fila_estado = ${p(input.view ?? 'aberta')}`];
  if (withStatus && input.status?.length) where.push(`e.status = ANY(${p(input.status)}::text[])`);
  if (withStatus && input.situacao?.length)
    where.push(`e.situacao = ANY(${p(input.situacao)}::text[])`);
  if (input.merchantId) where.push(`e.merchant_id = ${p(input.merchantId)}`);
  if (input.motivo) where.push(`e.motivo_codigo = ${p(input.motivo)}`);
  if (input.idadeMinHoras !== undefined)
    where.push(`e.criada_em <= now() - ${p(input.idadeMinHoras)}::float8 * interval '1 hour'`);
  if (input.idadeMaxHoras !== undefined)
    where.push(`e.criada_em > now() - ${p(input.idadeMaxHoras)}::float8 * interval '1 hour'`);
  if (input.search) where.push(`e.texto ILIKE ${p(likePattern(input.search))}`);
  return where;
}

/** The counters are kept per view and merchant: other filters count the rows themselves. */
function countersCover(input: ListInput): boolean {
  return (
    !input.motivo &&
    input.idadeMinHoras === undefined &&
    input.idadeMaxHoras === undefined &&
    !input.search
  );
}

/**
 * The page statement of the deadline order (#39.2, migration 1070): each situation's open items
 * in (start, id) order from the index — at most one page each, after the cursor moved back by
 * that situation's minutes — merged by (deadline, id). Exact for any minutes; see 1070.
 */
function deadlinePageSql(
  input: ListInput,
  values: unknown[],
  where: string[],
  prazos: DeadlineMinutes,
  limit: string,
): string {
  const p = (v: unknown) => `$${values.push(v)}`;
  const chosen = input.situacao?.length ? input.situacao : null;
  const situacoes = SITUACOES.filter((s) => !chosen || chosen.includes(s));
  let after: { at: string; id: string } | null = null;
  if (input.cursor) {
    const [at, id] = decodeCursor(input.cursor, 'prazo', ['t', 'n']);
    after = { at: p(at), id: p(id) };
  }
  const branches = situacoes.map((s) => {
    const min = p(deadlineMinutesOf(s, prazos));
    // The literal state matches the indexes' predicate whatever plan the statement gets.
    const conds = ["e.fila_estado = 'aberta'", ...where, `e.situacao = ${p(s)}`];
    if (after) {
      conds.push(
        `(${DEADLINE_START_SQL}, e.id) > (${after.at}::timestamptz - make_interval(mins => ${min}::int), ${after.id}::bigint)`,
      );
    }
    return `(SELECT e.id, ${DEADLINE_START_SQL} + make_interval(mins => ${min}::int) AS prazo
               FROM extracoes e WHERE ${conds.join(' AND ')}
              ORDER BY ${DEADLINE_START_SQL}, e.id LIMIT ${limit})`;
  });
  return `SELECT ${ITEM_COLS}, k.prazo::text AS prazo_k
            FROM (${branches.join(' UNION ALL ')}) k
            JOIN extracoes e ON e.id = k.id JOIN merchants m ON m.id = e.merchant_id
           ORDER BY k.prazo, k.id LIMIT ${limit}`;
}

/**
 * One page of the queue, keyset-paginated on the chosen sort (never OFFSET): the nearest
 * deadline first (past-deadline items first: `prazo`, open items only — closed items have no
 * deadline and list oldest first), newest first, oldest first, or most attempts first; ties
 * broken by id so no row repeats or goes missing.
 * Counts per situation (first page only) follow the same filters except the status filters; by
 * view and merchant they come from the maintained counters (exact, see migration 0740).
 */
export async function listQueue(
  pool: pg.Pool,
  input: ListInput,
  prazos?: DeadlineMinutes,
): Promise<QueuePage> {
  const view = input.view ?? 'aberta';
  const asked = input.sort ?? 'recentes';
  const sort = asked === 'prazo' && view !== 'aberta' ? 'antigas' : asked;
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  const where = buildWhere(input, values, true);
  // The deadline order has its own statement (deadlinePageSql), built once the page size is a
  // parameter.
  let order = '';
  if (sort === 'tentativas') {
    order = 'e.tentativas DESC, e.criada_em DESC, e.id DESC';
    if (input.cursor) {
      const [t, at, id] = decodeCursor(input.cursor, sort, ['n', 't', 'n']);
      where.push(
        `(e.tentativas, e.criada_em, e.id) < (${p(t)}::int, ${p(at)}::timestamptz, ${p(id)}::bigint)`,
      );
    }
  } else if (sort !== 'prazo') {
    const dir = sort === 'antigas' ? 'ASC' : 'DESC';
    order = `e.criada_em ${dir}, e.id ${dir}`;
    if (input.cursor) {
      const [at, id] = decodeCursor(input.cursor, sort, ['t', 'n']);
      where.push(
        `(e.criada_em, e.id) ${dir === 'ASC' ? '>' : '<'} (${p(at)}::timestamptz, ${p(id)}::bigint)`,
      );
    }
  }
  const limit = p(input.limit + 1);
  const countValues: unknown[] = [];
  const countWhere = buildWhere(input, countValues, false);
  const first = !input.cursor;
  const [rows, counts] = await Promise.all([
    query<ItemRow & { prazo_k?: string }>(
      pool,
      sort === 'prazo'
        ? deadlinePageSql(input, values, where, prazos ?? DEFAULT_DEADLINE_MINUTES, limit)
        : `SELECT ${ITEM_COLS} FROM extracoes e JOIN merchants m ON m.id = e.merchant_id
            WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`,
      values,
    ),
    !first
      ? Promise.resolve(null)
      : countersCover(input)
        ? // Maintained counters (migration 0740): a few rows instead of counting the queue.
          // Their `status` key holds the situation since 0800.
          query<{ status: Situacao; n: number }>(
            pool,
            'SELECT status, n::int AS n FROM balcao_fila_contagens($1, $2)',
            [input.view ?? 'aberta', input.merchantId ?? 0],
          )
        : query<{ status: Situacao; n: number }>(
            pool,
            `SELECT e.situacao AS status, count(*)::int AS n FROM extracoes e
              WHERE ${countWhere.join(' AND ')} GROUP BY 1`,
            countValues,
          ),
  ]);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  let c: QueuePage['counts'] = null;
  if (counts) {
    c = Object.fromEntries(SITUACOES.map((s) => [s, 0])) as Record<Situacao, number>;
    for (const r of counts) if (r.status in c) c[r.status] = r.n;
  }
  let nextCursor: string | null = null;
  if (rows.length > input.limit && last) {
    nextCursor =
      sort === 'prazo'
        ? encodeCursor(sort, [last.prazo_k ?? '', last.id])
        : sort === 'tentativas'
          ? encodeCursor(sort, [last.tentativas, last.criada_em_k, last.id])
          : encodeCursor(sort, [last.criada_em_k, last.id]);
  }
  return { items: page.map((r) => toItem(r, prazos)), nextCursor, counts: c };
}

/** Merchants and reasons present in a part of the queue, for the filter menus. */
export async function filterOptions(
  pool: pg.Pool,
  view: ReviewListInput['view'] = 'aberta',
): Promise<FilterOptions> {
  // Counts come from the maintained counters (migrations 0740/0750: per merchant, per reason;
  // exact); the example message is looked up once per reason (index on fila_estado, motivo).
  const [merchants, motivos] = await Promise.all([
    query<{ id: number; nome: string; abertas: number }>(
      pool,
      `SELECT m.id, m.nome, coalesce(c.n, 0)::int AS abertas
         FROM merchants m
         LEFT JOIN balcao_fila_por_lojista($1) c ON c.merchant_id = m.id
        ORDER BY 3 DESC, m.nome`,
      [view],
    ),
    query<{ codigo: string; mensagem: string | null; abertas: number }>(
      pool,
      `SELECT c.codigo, c.abertas,
              (SELECT e.erros -> 0 ->> 'mensagem' FROM extracoes e
                WHERE e.fila_estado = $1 AND e.motivo_codigo = c.codigo LIMIT 1) AS mensagem
         FROM (SELECT motivo_codigo AS codigo, n::int AS abertas
                 FROM balcao_fila_motivos($1)) c
        ORDER BY c.abertas DESC, c.codigo`,
      [view],
    ),
  ]);
  return {
    merchants,
    motivos: motivos.map((r) => ({
      codigo: r.codigo,
      rotulo: reasonLabel(r.codigo, r.mensagem),
      abertas: r.abertas,
    })),
  };
}
