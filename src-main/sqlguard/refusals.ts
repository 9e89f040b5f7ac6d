/**
 * Free-SQL guard, layer 1: what a refusal is (its code) and how it is worded for people and for
 * the model (pt-BR). The walker throws `Refusal`; `checkSqlSync` turns it into a verdict.
 */
export type RefusalCode =
  | 'vazio'
  | 'tamanho'
  | 'sintaxe'
  | 'varios_comandos'
  | 'nao_select'
  | 'relacao'
  | 'funcao'
  | 'operador'
  | 'tipo'
  | 'bloqueio'
  | 'into'
  | 'coluna_sistema'
  | 'relogio'
  | 'construcao';

export type GuardVerdict =
  { ok: true; sql: string } | { ok: false; code: RefusalCode; motivo: string };

const PREFIX = 'consulta recusada: ';
export const MSG_ONLY_VIEW = `${PREFIX}só é permitido ler a visão de vendas`;

export const MESSAGES: Record<RefusalCode, string> = {
  vazio: `${PREFIX}a consulta está vazia`,
  tamanho: `${PREFIX}a consulta é grande ou aninhada demais`,
  sintaxe: `${PREFIX}o SQL não é válido`,
  varios_comandos: `${PREFIX}envie um único comando SELECT`,
  nao_select: MSG_ONLY_VIEW,
  relacao: MSG_ONLY_VIEW,
  funcao: `${PREFIX}função não permitida`,
  operador: `${PREFIX}operador não permitido`,
  tipo: `${PREFIX}conversão de tipo não permitida`,
  bloqueio: `${PREFIX}FOR UPDATE/SHARE não é permitido`,
  into: `${PREFIX}SELECT INTO não é permitido`,
  coluna_sistema: `${PREFIX}colunas de sistema não são permitidas`,
  relogio: `${PREFIX}use datas literais ('AAAA-MM-DD') em vez de now(), current_date, 'now', 'today' e afins`,
  construcao: `${PREFIX}construção de SQL não permitida`,
};

export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly detail?: string,
  ) {
    super(code);
  }
}

export function refuse(code: RefusalCode, detail?: string): never {
  throw new Refusal(code, detail);
}

/** The pt-BR sentence of a refusal. */
export function refusalMessage(r: Refusal): string {
  const base = MESSAGES[r.code];
  // Echo only a plain identifier/operator of the submitted text, never arbitrary characters.
  const d = r.detail;
  if (d && (r.code === 'funcao' || r.code === 'tipo') && /^[a-z_][a-z0-9_.]{0,62}$/i.test(d)) {
    return `${base} (${d})`;
  }
  if (d && r.code === 'operador' && /^[-+*/%<>=!~|&^#@?]{1,4}$/.test(d)) return `${base} (${d})`;
  return base;
}
