/**
 * The audited reveal (#38.2): a supervisor clicks a masked CPF/CNPJ and gets the field as
 * stored; the audit row says who saw which field when (the login from the session, the masked
 * documents — never the clear value). Other roles never reach this (channel permission) and the
 * database refuses them too (balcao_lgpd_permitido).
 */
import type pg from 'pg';
import { AppError } from '@shared/errors';
import type { CampoRevelavel } from '@shared/contract/lgpd';
import { maskDocumentsIn } from '@shared/lgpd';

const SQL: Record<CampoRevelavel, string> = {
  'mensagens.texto': 'SELECT texto AS valor FROM mensagens WHERE id = $1',
  'extracoes.texto': 'SELECT texto AS valor FROM extracoes WHERE id = $1',
  'mensagens_saida.texto': 'SELECT texto AS valor FROM mensagens_saida WHERE id = $1',
  'cobrancas.cliente_documento': 'SELECT cliente_documento AS valor FROM cobrancas WHERE id = $1',
};

export async function revealField(
  pool: pg.Pool,
  input: { campo: CampoRevelavel; id: number },
  operador: string,
): Promise<{ valor: string }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT balcao_lgpd_permitido()');
    const r = await client.query<{ valor: string | null }>(SQL[input.campo], [input.id]);
    const valor = r.rows[0]?.valor;
    if (valor === undefined || valor === null) {
      throw new AppError('nao_encontrado', 'Este dado não existe mais (ou foi anonimizado).');
    }
    const [tabela, coluna] = input.campo.split('.') as [string, string];
    await client.query(
      `INSERT INTO auditoria (operador, acao, detalhes) VALUES ($1, 'lgpd_revelar', $2)`,
      [
        operador,
        JSON.stringify({
          tabela,
          id: String(input.id),
          campo: coluna,
          mascarado: maskDocumentsIn(valor),
        }),
      ],
    );
    await client.query('COMMIT');
    return { valor };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
