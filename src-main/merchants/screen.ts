/**
 * What the supervisor's merchant screen reads (#36.5, #37.1): merchants found by code, name, Pix
 * key or WhatsApp number, a page at a time (keyset on the id), and one merchant with its key,
 * its numbers and its charges in "Falhas no PSP". The changes go through the services the CLI
 * uses (psp/admin.ts, whatsapp/contacts.ts): there is no second copy of their rules here.
 */
import type { LojistaDetalhe, LojistaResumo } from '@shared/contract/merchants';
import { AppError } from '@shared/errors';
import { validarChavePix } from '@shared/pix';
import type pg from 'pg';
import { query } from '../db/tx';
import { SEM_CHAVE } from '../psp/dispatch';
import { listFailures, motivoParaPessoas } from '../psp/screens';
import { listContatos } from '../whatsapp/contacts';

/** `%` and `_` in a search are letters, not patterns. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function searchMerchantsForScreen(
  pool: pg.Pool,
  f: { busca: string; semChave: boolean; depoisDe?: number | undefined; limit: number },
): Promise<{ items: LojistaResumo[]; proximo: number | null }> {
  const busca = f.busca.trim();
  const digits = busca.replace(/\D/g, '');
  const rows = await query<LojistaResumo>(
    pool,
    `SELECT m.id::int AS id, m.nome, m.chave_pix AS "chavePix",
            (SELECT count(*)::int FROM lojistas_contatos k WHERE k.merchant_id = m.id) AS contatos,
            (SELECT count(*)::int FROM cobrancas c JOIN cobrancas_envios e ON e.cobranca_id = c.id
              WHERE c.merchant_id = m.id AND e.estado = 'falhou') AS falhas
       FROM merchants m
      WHERE m.id > $1
        AND (NOT $2::boolean OR m.chave_pix IS NULL)
        AND ($3 = ''
             OR m.id::text = $3
             OR m.nome ILIKE '%' || $4 || '%'
             OR m.chave_pix ILIKE '%' || $4 || '%'
             OR (length($5) >= 4 AND EXISTS (
                   SELECT 1 FROM lojistas_contatos k
                    WHERE k.merchant_id = m.id AND k.telefone LIKE '%' || $5 || '%')))
      ORDER BY m.id
      LIMIT $6`,
    [f.depoisDe ?? 0, f.semChave, busca, likeEscape(busca), digits, f.limit + 1],
  );
  const items = rows.slice(0, f.limit);
  return {
    items,
    proximo: rows.length > f.limit ? (items[items.length - 1]?.id ?? null) : null,
  };
}

export async function merchantDetail(pool: pg.Pool, merchantId: number): Promise<LojistaDetalhe> {
  const [m] = await query<{ id: number; nome: string; chave_pix: string | null }>(
    pool,
    'SELECT id::int AS id, nome, chave_pix FROM merchants WHERE id = $1',
    [merchantId],
  );
  if (!m) throw new AppError('nao_encontrado', `Lojista ${merchantId} não encontrado.`);
  const [contatos, falhas] = await Promise.all([
    listContatos(pool, merchantId),
    listFailures(pool, 200, merchantId),
  ]);
  const chave = m.chave_pix === null ? null : validarChavePix(m.chave_pix);
  const semChave = motivoParaPessoas(SEM_CHAVE);
  return {
    id: m.id,
    nome: m.nome,
    chavePix: m.chave_pix,
    chaveTipo: chave?.ok ? chave.tipo : null,
    contatos: contatos.map((c) => ({
      telefone: c.telefone,
      criadoEm: c.criado_em,
      criadoPor: c.criado_por,
    })),
    falhas: falhas.map((f) => ({ ...f, semChave: f.motivo === semChave })),
  };
}
