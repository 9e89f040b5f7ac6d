import type { Charge, DiscardReason, QueueItem } from '@shared/contract/review';
import type {
  Alerta,
  DadosCobranca,
  ExtractionStatus,
  FilaEstado,
  RuleError,
  Situacao,
} from '@shared/extraction-types';

/** Columns of a queue row (alias `e` = extracoes, `m` = merchants). */
export const ITEM_COLS = `e.id, e.merchant_id, m.nome AS merchant_nome, e.texto, e.status, e.fila_estado,
  e.tentativas, e.erros, e.alertas, e.dados, e.motivo_codigo, e.criada_em,
  e.criada_em::text AS criada_em_k, e.situacao, e.aguardando_desde,
  e.resolvida_por, e.resolvida_em, e.descarte_motivo, e.descarte_detalhe,
  coalesce(e.situacao_desde, e.aguardando_desde, e.criada_em) AS prazo_desde,
  (SELECT c.id FROM cobrancas c WHERE c.extracao_id = e.id AND c.devolvida_em IS NULL) AS cobranca_id,
  CASE WHEN e.lease_expira_em > now() THEN e.lease_operador END AS em_analise_por,
  e.atribuida_a`;

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
  situacao: Situacao;
  aguardando_desde: Date | null;
  resolvida_por: string | null;
  resolvida_em: Date | null;
  descarte_motivo: DiscardReason | null;
  descarte_detalhe: string | null;
  cobranca_id: number | null;
  /** The login a supervisor assigned the item to (#39.5). */
  atribuida_a?: string | null;
  /** When the item entered its situation: its deadline's start (migration 1000). */
  prazo_desde: Date;
}

/**
 * Short pt-BR labels of the reason codes (the engine's rule ids, plus 'faltando' and the amount
 * alert) for the filter menu; the rule messages themselves carry case values ("recebido …").
 */
const REASON_LABELS: Record<string, string> = {
  faltando: 'Informações faltando',
  valor_divergente: 'Valor diferente do texto',
  vencimento_divergente: 'Vencimento diferente do texto',
  falhou: 'Falhou sem regra registrada',
  valor_faixa: 'Valor fora da faixa (R$ 1,00 a R$ 100.000,00)',
  valor_inteiro: 'Valor não é um inteiro em centavos',
  parcelas_faixa: 'Parcelas fora de 1 a 12',
  parcelas_inteiro: 'Parcelas não é um número inteiro',
  parcelas_pix_boleto: 'Pix ou boleto com mais de 1 parcela',
  metodo_invalido: 'Forma de pagamento inválida',
  vencimento_invalido: 'Vencimento não é uma data válida',
  vencimento_passado: 'Vencimento no passado',
  cliente_nome_tamanho: 'Nome do cliente longo demais',
  cliente_nome_vazio: 'Nome do cliente vazio',
  cliente_nome_texto: 'Nome do cliente não é texto',
  descricao_tamanho: 'Descrição longa demais',
  descricao_vazio: 'Descrição vazia',
  descricao_texto: 'Descrição não é texto',
  faltando_lista: 'Lista de campos faltantes inválida',
  faltando_desconhecido: 'Campo faltante desconhecido',
  faltando_repetido: 'Campo faltante repetido',
  faltando_sem_campo_nulo: 'Campo vazio fora da lista de faltantes',
  faltando_com_valor: 'Campo com valor listado como faltante',
  campo_desconhecido: 'Campos desconhecidos na resposta',
  campo_obrigatorio: 'Campo ausente na resposta',
  objeto: 'Resposta fora do formato',
  formato: 'Formato inválido',
};

/** Human label of a reason code; unknown codes fall back to an example message. */
export function reasonLabel(codigo: string, mensagem?: string | null): string {
  return REASON_LABELS[codigo] ?? mensagem ?? codigo;
}

const FIELD_LABELS: Record<string, string> = {
  valor_centavos: 'valor',
  parcelas: 'parcelas',
  metodo: 'forma de pagamento',
  cliente_nome: 'cliente',
  vencimento: 'vencimento',
  descricao: 'descrição',
  cliente_documento: 'CPF/CNPJ do pagador',
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

/** Minutes of each situation's deadline (settings BALCAO_PRAZO_*_MIN). */
export interface DeadlineMinutes {
  falhou: number;
  incompleto: number;
  aguardando: number;
}

/** The settings' defaults (BALCAO_PRAZO_*_MIN unset). */
export const DEFAULT_DEADLINE_MINUTES: Readonly<DeadlineMinutes> = {
  falhou: 30,
  incompleto: 120,
  aguardando: 1440,
};

/** The deadline's start in SQL (alias `e`): the expression migration 1070 indexes. */
export const DEADLINE_START_SQL = 'coalesce(e.situacao_desde, e.aguardando_desde, e.criada_em)';

/** Minutes of a situation's deadline (`incompleto`'s also for `com_alerta` and `completo`). */
export function deadlineMinutesOf(situacao: Situacao, m: DeadlineMinutes): number {
  return situacao === 'falhou'
    ? m.falhou
    : situacao === 'aguardando_lojista'
      ? m.aguardando
      : m.incompleto;
}

/** An open item's deadline: its situation's minutes from when it entered the situation. */
export function itemDeadline(r: ItemRow, m: DeadlineMinutes): QueueItem['prazo'] {
  if (r.fila_estado !== 'aberta') return null;
  const min = deadlineMinutesOf(r.situacao, m);
  return {
    desde: r.prazo_desde.toISOString(),
    ate: new Date(r.prazo_desde.getTime() + min * 60_000).toISOString(),
  };
}

export function toItem(r: ItemRow, prazos?: DeadlineMinutes): QueueItem {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    merchantNome: r.merchant_nome,
    texto: r.texto,
    status: r.status,
    situacao: r.situacao,
    aguardandoDesde: r.aguardando_desde ? r.aguardando_desde.toISOString() : null,
    filaEstado: r.fila_estado,
    tentativas: r.tentativas,
    motivo: mainReason(r),
    motivoCodigo: r.motivo_codigo,
    criadaEm: r.criada_em.toISOString(),
    emAnalisePor: r.em_analise_por,
    alertas: r.alertas,
    resolvidaPor: r.resolvida_por,
    resolvidaEm: r.resolvida_em ? r.resolvida_em.toISOString() : null,
    cobrancaId: r.cobranca_id === null ? null : Number(r.cobranca_id),
    descarteMotivo: r.descarte_motivo,
    descarteDetalhe: r.descarte_detalhe,
    atribuidaA: r.atribuida_a ?? null,
    ...(prazos ? { prazo: itemDeadline(r, prazos) } : {}),
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
