/**
 * What the screens show of a charge's dispatch (#36.7): the "Falhas no PSP" view, a charge's
 * dispatch steps in words for people, and the reasons the dispatch stores, said for people (the
 * CLI's own wording names its commands; a screen never does).
 */
import {
  ESTADO_ENVIO_LABELS,
  type EnvioHistorico,
  type EnvioPasso,
  type EstadoEnvio,
  type FalhaPsp,
} from '@shared/contract/pix';
import type pg from 'pg';
import { query } from '../db/tx';
import { SEM_CHAVE, SEM_LINKS, SEM_PSP } from './dispatch';

const PARA_PESSOAS: Record<string, string> = {
  [SEM_CHAVE]:
    'O lojista não tem chave Pix cadastrada: cadastre a chave Pix do lojista e reenvie a cobrança.',
  [SEM_PSP]: 'Nenhum PSP configurado: a cobrança aguarda e nada foi enviado.',
  [SEM_LINKS]:
    'Nenhum serviço de links de pagamento configurado: a cobrança no cartão ou boleto aguarda e nada foi enviado.',
};

/** A stored reason as people read it on a screen. */
export function motivoParaPessoas(motivo: string | null): string | null {
  return motivo === null ? null : (PARA_PESSOAS[motivo] ?? motivo);
}

const EVENTO_TEXTO: Record<string, string> = {
  criada: 'Cobrança criada; envio ao PSP na fila',
  registrada: 'Registrada no PSP (copia-e-cola gerado)',
  enviada_ao_lojista: 'Copia-e-cola enviado ao lojista',
  paga: 'Pagamento confirmado pelo PSP',
  expirada: 'Venceu sem pagamento',
  cancelada: 'Cancelada',
  removida_no_psp: 'Removida no PSP',
  recusada: 'Recusada',
  tentativas_esgotadas: 'Tentativas esgotadas',
  tentativa_falhou: 'Tentativa de envio falhou',
  reenviada: 'Reenviada por uma pessoa',
  aguardando: 'Aguardando',
  valor_divergente: 'Valor recebido diferente do cobrado',
};

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** One stored event in words: what happened and, when there is one, why. */
export function passoTexto(
  evento: string,
  para: EstadoEnvio | null,
  detalhes: Record<string, unknown>,
): string {
  const base =
    EVENTO_TEXTO[evento] ?? (para ? ESTADO_ENVIO_LABELS[para] : evento.replace(/_/g, ' '));
  const why = motivoParaPessoas(str(detalhes.motivo) ?? str(detalhes.erro));
  return why ? `${base}: ${why}` : base;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Charges in `falhou`, the newest change first (the "Falhas no PSP" view); of one merchant when
 * given (its screen).
 */
export async function listFailures(
  db: pg.Pool,
  limit: number,
  merchantId?: number,
): Promise<FalhaPsp[]> {
  const rows = await query<Omit<FalhaPsp, 'motivo'> & { motivo: string }>(
    db,
    `SELECT c.id::int AS "cobrancaId", c.extracao_id::int AS "extracaoId",
            c.merchant_id::int AS "merchantId", m.nome AS "merchantNome",
            c.cliente_nome AS "clienteNome", c.valor_centavos::int AS "valorCentavos",
            to_char(c.vencimento, 'YYYY-MM-DD') AS vencimento, e.motivo, e.tentativas,
            to_char(e.atualizada_em AT TIME ZONE 'UTC', ${ISO}) AS "atualizadaEm",
            m.chave_pix IS NOT NULL AS "temChavePix"
       FROM cobrancas_envios e JOIN cobrancas c ON c.id = e.cobranca_id
       JOIN merchants m ON m.id = c.merchant_id
      WHERE e.estado = 'falhou' AND ($2::bigint IS NULL OR c.merchant_id = $2)
      ORDER BY e.atualizada_em DESC, c.id DESC LIMIT $1`,
    [limit, merchantId ?? null],
  );
  return rows.map((r) => ({ ...r, motivo: motivoParaPessoas(r.motivo) ?? '' }));
}

/** A charge's dispatch and every step of it, in order; null when it has no dispatch. */
export async function dispatchHistory(
  db: pg.Pool,
  cobrancaId: number,
): Promise<EnvioHistorico | null> {
  const [envio] = await query<{ estado: EstadoEnvio; motivo: string | null }>(
    db,
    'SELECT estado, motivo FROM cobrancas_envios WHERE cobranca_id = $1',
    [cobrancaId],
  );
  if (!envio) return null;
  const eventos = await query<{
    ocorrido_em: string;
    de: EstadoEnvio | null;
    para: EstadoEnvio | null;
    evento: string;
    operador: string;
    detalhes: Record<string, unknown>;
  }>(
    db,
    `SELECT to_char(ocorrido_em AT TIME ZONE 'UTC', ${ISO}) AS ocorrido_em, de, para, evento,
            operador, detalhes
       FROM cobrancas_eventos WHERE cobranca_id = $1 ORDER BY id`,
    [cobrancaId],
  );
  return {
    cobrancaId,
    estado: envio.estado,
    motivo: motivoParaPessoas(envio.motivo),
    passos: eventos.map((e): EnvioPasso => ({
      ocorridoEm: e.ocorrido_em,
      de: e.de,
      para: e.para,
      texto: passoTexto(e.evento, e.para, e.detalhes ?? {}),
      operador: e.operador,
    })),
  };
}
