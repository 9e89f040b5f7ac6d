import type { Charge, QueueItem } from '@shared/contract/review';
import type {
  Alerta,
  DadosCobranca,
  ExtractionStatus,
  FilaEstado,
  RuleError,
} from '@shared/extraction-types';

/** Columns of a queue row (alias `e` = extracoes, `m` = merchants). */
export const ITEM_COLS = `e.id, e.merchant_id, m.nome AS merchant_nome, e.texto, e.status, e.fila_estado,
  e.tentativas, e.erros, e.alertas, e.dados, e.motivo_codigo, e.criada_em,
  e.criada_em::text AS criada_em_k,
  CASE WHEN e.lease_expira_em > now() THEN e.lease_operador END AS em_analise_por`;

export interface ItemRow {
  id: number;
  merchant_id: number;
  merchant_nome: string;
  texto: string;
  status: ExtractionStatus;
  fila_estado: FilaEstado;
  tentativas: number;
  erros: RuleError[];
  alertas: Alerta[];
  dados: DadosCobranca | null;
  motivo_codigo: string | null;
  criada_em: Date;
  /** Full-precision timestamp text (microseconds), for keyset cursors. */
  criada_em_k: string;
  em_analise_por: string | null;
}

/** Human label of a reason code when no message is at hand. */
export function reasonLabel(codigo: string, mensagem?: string | null): string {
  if (codigo === 'faltando') return 'Informações faltando';
  if (codigo === 'valor_divergente') return 'Valor diferente do texto';
  if (codigo === 'falhou') return 'Falhou sem regra registrada';
  return mensagem ?? codigo;
}

const FIELD_LABELS: Record<string, string> = {
  valor_centavos: 'valor',
  parcelas: 'parcelas',
  metodo: 'forma de pagamento',
  cliente_nome: 'cliente',
  vencimento: 'vencimento',
  descricao: 'descrição',
};

/** The main reason an item needs a person: first failing rule, missing fields, or the alert. */
export function mainReason(r: Pick<ItemRow, 'status' | 'erros' | 'alertas' | 'dados'>): string {
  const first = Array.isArray(r.erros) ? r.erros[0] : undefined;
  if (r.status === 'falhou') {
    if (first && typeof first === 'object') return first.mensagem;
    if (typeof first === 'string') return first;
    return 'A extração falhou.';
  }
  if (r.status === 'incompleto') {
    const f = r.dados?.faltando ?? [];
    return f.length
      ? `Faltando: ${f.map((x) => FIELD_LABELS[x] ?? x).join(', ')}`
      : 'Informações faltando';
  }
  if (r.alertas[0]) return r.alertas[0].mensagem;
  return '';
}

export function toItem(r: ItemRow): QueueItem {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    merchantNome: r.merchant_nome,
    texto: r.texto,
    status: r.status,
    filaEstado: r.fila_estado,
    tentativas: r.tentativas,
    motivo: mainReason(r),
    motivoCodigo: r.motivo_codigo,
    criadaEm: r.criada_em.toISOString(),
    emAnalisePor: r.em_analise_por,
    alertas: r.alertas,
  };
}

export const CHARGE_COLS = `c.id, c.extracao_id, c.merchant_id, m.nome AS merchant_nome, c.valor_centavos,
  c.parcelas, c.metodo, c.cliente_nome, c.vencimento, c.descricao, c.alteracoes, c.criada_por,
  c.criada_em, c.criada_em::text AS criada_em_k`;

export interface ChargeRow {
  id: number;
  extracao_id: number;
  merchant_id: number;
  merchant_nome: string;
  valor_centavos: number;
  parcelas: number;
  metodo: Charge['metodo'];
  cliente_nome: string;
  vencimento: string;
  descricao: string | null;
  alteracoes: Charge['alteracoes'];
  criada_por: string;
  criada_em: Date;
  criada_em_k: string;
}

export function toCharge(r: ChargeRow): Charge {
  return {
    id: r.id,
    extracaoId: r.extracao_id,
    merchantId: r.merchant_id,
    merchantNome: r.merchant_nome,
    valorCentavos: r.valor_centavos,
    parcelas: r.parcelas,
    metodo: r.metodo,
    clienteNome: r.cliente_nome,
    vencimento: r.vencimento,
    descricao: r.descricao,
    alteracoes: r.alteracoes,
    criadaPor: r.criada_por,
    criadaEm: r.criada_em.toISOString(),
  };
}
