import type { EnvioResumo, EstadoEnvio } from '@shared/contract/pix';
import type { ChargeListItem, ChargeSituacao, ChargesPage } from '@shared/contract/review';
import { addDays, startOfLocalDay } from '@shared/time';
import type pg from 'pg';
import { decodeCursor, encodeCursor } from './cursor';
import { CHARGE_COLS, toCharge, type ChargeRow } from './rows';
import { query } from '../db/tx';
import { motivoParaPessoas } from '../psp/screens';

export interface ChargesFilter {
  merchantId?: number | undefined;
  search?: string | undefined;
  numero?: number | undefined;
  situacao?: ChargeSituacao | undefined;
  estadoEnvio?: EstadoEnvio | undefined;
  de?: string | undefined;
  ate?: string | undefined;
  cursor?: string | null | undefined;
  limit: number;
}

interface EnvioRow {
  envio_estado: EstadoEnvio | null;
  envio_motivo: string | null;
  envio_em: string | null;
  envio_copia_e_cola: string | null;
  envio_link: string | null;
}

/** The charge's dispatch (#36.7), its reason said for people. */
function envioOf(r: EnvioRow): EnvioResumo | null {
  if (!r.envio_estado || !r.envio_em) return null;
  return {
    estado: r.envio_estado,
    motivo: motivoParaPessoas(r.envio_motivo),
    atualizadaEm: r.envio_em,
    copiaECola: r.envio_copia_e_cola,
    link: r.envio_link,
  };
}

/** Escapes LIKE wildcards so the search is literal. */
function likePattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * Created charges, newest first, keyset-paginated on (criada_em, id), filtered in SQL (every
 * value a parameter): merchant, number, free text (client, description, merchant, agent), the
 * local days it was created in, and where it stands against today's date (`hoje`, local).
 */
export async function listCharges(
  pool: pg.Pool,
  input: ChargesFilter,
  ctx: { hoje: string; zone: string },
): Promise<ChargesPage> {
  const values: unknown[] = [];
  const p = (v: unknown) => `$${values.push(v)}`;
  const where = ['TRUE'];
  if (input.merchantId) where.push(`c.merchant_id = ${p(input.merchantId)}`);
  if (input.numero) where.push(`c.id = ${p(input.numero)}`);
  if (input.search) {
    const q = p(likePattern(input.search));
    where.push(
      `(c.cliente_nome ILIKE ${q} OR c.descricao ILIKE ${q} OR m.nome ILIKE ${q} OR c.criada_por ILIKE ${q})`,
    );
  }
  if (input.de && input.ate) {
    where.push(`c.criada_em >= ${p(startOfLocalDay(input.de, ctx.zone))}::timestamptz`);
    where.push(`c.criada_em < ${p(startOfLocalDay(addDays(input.ate, 1), ctx.zone))}::timestamptz`);
  }
  const hoje = p(ctx.hoje);
  if (input.situacao === 'vencida') where.push(`c.vencimento < ${hoje}::date`);
  if (input.situacao === 'vence_hoje') where.push(`c.vencimento = ${hoje}::date`);
  if (input.situacao === 'a_vencer') where.push(`c.vencimento > ${hoje}::date`);
  if (input.estadoEnvio) where.push(`e.estado = ${p(input.estadoEnvio)}`);
  if (input.cursor) {
    const [at, id] = decodeCursor(input.cursor, 'cobrancas', ['t', 'n']);
    where.push(`(c.criada_em, c.id) < (${p(at)}::timestamptz, ${p(id)}::bigint)`);
  }
  const rows = await query<ChargeRow & { situacao: ChargeSituacao } & EnvioRow>(
    pool,
    `SELECT ${CHARGE_COLS},
            CASE WHEN c.vencimento < ${hoje}::date THEN 'vencida'
                 WHEN c.vencimento = ${hoje}::date THEN 'vence_hoje'
                 ELSE 'a_vencer' END AS situacao,
            e.estado AS envio_estado, e.motivo AS envio_motivo,
            to_char(e.atualizada_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS envio_em,
            e.copia_e_cola AS envio_copia_e_cola, coalesce(e.link, e.location) AS envio_link
       FROM cobrancas c JOIN merchants m ON m.id = c.merchant_id
       LEFT JOIN cobrancas_envios e ON e.cobranca_id = c.id
      WHERE ${where.join(' AND ')} ORDER BY c.criada_em DESC, c.id DESC LIMIT ${p(input.limit + 1)}`,
    values,
  );
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r): ChargeListItem => ({
      ...toCharge(r),
      situacao: r.situacao,
      envio: envioOf(r),
    })),
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor('cobrancas', [last.criada_em_k, last.id])
        : null,
  };
}
