/**
 * Merchants' WhatsApp numbers (`lojistas_contatos`, #37): one number → one merchant. The
 * webhook names the merchant of a message from here only. Adding and removing are audited in
 * the transaction that makes the change.
 */
import { AppError } from '@shared/errors';
import type pg from 'pg';
import { query, withTransaction } from '../db/tx';
import { writeAudit } from '../queue/audit';
import { parseTelefone, telefoneVariants } from './phone';

export interface Contato {
  telefone: string;
  merchant_id: number;
  lojista: string;
  criado_em: string;
  criado_por: string;
}

const CONTATO_SQL = `SELECT c.telefone, c.merchant_id::int AS merchant_id, m.nome AS lojista,
       to_char(c.criado_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS criado_em,
       c.criado_por
  FROM lojistas_contatos c JOIN merchants m ON m.id = c.merchant_id`;

function telefoneOrThrow(input: string): string {
  const p = parseTelefone(input);
  if (!p.ok) throw new AppError('entrada_invalida', p.motivo);
  return p.telefone;
}

async function merchantName(c: pg.PoolClient | pg.Pool, id: number): Promise<string> {
  const r = await c.query<{ nome: string }>({
    text: 'SELECT nome FROM merchants WHERE id = $1',
    values: [id],
  });
  const nome = r.rows[0]?.nome;
  if (nome === undefined) throw new AppError('nao_encontrado', `Lojista ${id} não encontrado.`);
  return nome;
}

/** The numbers of one merchant (or of all), by merchant then number. */
export async function listContatos(pool: pg.Pool, merchantId?: number): Promise<Contato[]> {
  if (merchantId !== undefined) await merchantName(pool, merchantId);
  return query<Contato>(
    pool,
    `${CONTATO_SQL} WHERE ($1::bigint IS NULL OR c.merchant_id = $1)
      ORDER BY c.merchant_id, c.telefone`,
    [merchantId ?? null],
  );
}

/**
 * Registers a number for a merchant. The same number (in any of its forms) already with this
 * merchant: nothing changes (`criado: false`); with another merchant: refused, naming it.
 */
export async function addContato(
  pool: pg.Pool,
  merchantId: number,
  input: string,
  operador: string,
): Promise<{ contato: Contato; criado: boolean }> {
  const telefone = telefoneOrThrow(input);
  const criado = await withTransaction(pool, async (c) => {
    const nome = await merchantName(c, merchantId);
    // Serialises writers of the same number (any form) so two merchants never both get it.
    await c.query({
      text: 'SELECT pg_advisory_xact_lock(970, hashtext($1))',
      values: [telefoneVariants(telefone).sort()[0]],
    });
    const held = await c.query<{ telefone: string; merchant_id: number; nome: string }>({
      text: `SELECT c.telefone, c.merchant_id::int AS merchant_id, m.nome
               FROM lojistas_contatos c JOIN merchants m ON m.id = c.merchant_id
              WHERE c.telefone = ANY($1::text[])`,
      values: [telefoneVariants(telefone)],
    });
    const other = held.rows.find((r) => r.merchant_id !== merchantId);
    if (other) {
      throw new AppError(
        'conflito',
        `O telefone ${telefone} já está cadastrado para o lojista #${other.merchant_id} (${other.nome}); remova-o de lá antes.`,
      );
    }
    if (held.rows.length) return false;
    await c.query({
      text: 'INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por) VALUES ($1, $2, $3)',
      values: [telefone, merchantId, operador],
    });
    await writeAudit(c, {
      operador,
      acao: 'contato_whatsapp_adicionado',
      extracaoId: null,
      depois: { telefone, merchant_id: merchantId },
      detalhes: { merchant_id: merchantId, lojista: nome },
    });
    return true;
  });
  const [contato] = await query<Contato>(
    pool,
    `${CONTATO_SQL} WHERE c.telefone = ANY($1::text[]) AND c.merchant_id = $2`,
    [telefoneVariants(telefone), merchantId],
  );
  return { contato: contato!, criado };
}

/** Removes a merchant's number; a number the merchant does not have is a pt-BR error. */
export async function removeContato(
  pool: pg.Pool,
  merchantId: number,
  input: string,
  operador: string,
): Promise<{ telefone: string; merchant_id: number }> {
  const telefone = telefoneOrThrow(input);
  return withTransaction(pool, async (c) => {
    const nome = await merchantName(c, merchantId);
    const r = await c.query<{ telefone: string }>({
      text: `DELETE FROM lojistas_contatos WHERE telefone = ANY($1::text[]) AND merchant_id = $2
             RETURNING telefone`,
      values: [telefoneVariants(telefone), merchantId],
    });
    const removed = r.rows[0]?.telefone;
    if (!removed) {
      throw new AppError(
        'nao_encontrado',
        `O telefone ${telefone} não está cadastrado para o lojista #${merchantId} (${nome}).`,
      );
    }
    await writeAudit(c, {
      operador,
      acao: 'contato_whatsapp_removido',
      extracaoId: null,
      antes: { telefone: removed, merchant_id: merchantId },
      detalhes: { merchant_id: merchantId, lojista: nome },
    });
    return { telefone: removed, merchant_id: merchantId };
  });
}

/** The merchant a number is registered to (any of its forms), or null. */
export async function merchantOfTelefone(
  db: pg.Pool | pg.PoolClient,
  telefone: string,
): Promise<number | null> {
  const r = await db.query<{ merchant_id: number }>({
    text: `SELECT merchant_id::int AS merchant_id FROM lojistas_contatos
            WHERE telefone = ANY($1::text[]) ORDER BY telefone = $2 DESC LIMIT 1`,
    values: [telefoneVariants(telefone), telefone],
  });
  return r.rows[0]?.merchant_id ?? null;
}
