/**
 * Error codes that cross a boundary (IPC, CLI). Messages are pt-BR sentences for people;
 * never raw database or SDK text.
 */
export const ERROR_CODES = [
  'entrada_invalida',
  'nao_encontrado',
  'conflito',
  'sem_chave_api',
  'modelo_indisponivel',
  'configuracao',
  'banco_indisponivel',
  'tempo_esgotado',
  'consulta_recusada',
  'acesso_negado',
  'cancelado',
  'interno',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The title people read above an error's message, per code (#42.6): the one mapping every screen
 * uses, so no code ever shows and every error has the same shape (title, message, what to do).
 */
export const ERROR_TITLES: Record<ErrorCode, string> = {
  entrada_invalida: 'Confira o que foi preenchido',
  nao_encontrado: 'Não encontrado',
  conflito: 'Outra pessoa mexeu nisto antes',
  sem_chave_api: 'Chave da API não configurada',
  modelo_indisponivel: 'O modelo não está disponível',
  configuracao: 'Falta uma configuração',
  banco_indisponivel: 'Banco de dados indisponível',
  tempo_esgotado: 'A consulta demorou demais',
  consulta_recusada: 'Consulta recusada',
  acesso_negado: 'Sem permissão',
  cancelado: 'Cancelado',
  interno: 'Algo deu errado',
};

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  /** Per-field pt-BR messages, for forms. */
  fields?: Record<string, string[]>;
}

/** An error whose message is safe to show to a person (pt-BR, no internals). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, string[]> | undefined;
  constructor(code: ErrorCode, message: string, fields?: Record<string, string[]>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }
  toJSON(): AppErrorShape {
    return this.fields
      ? { code: this.code, message: this.message, fields: this.fields }
      : { code: this.code, message: this.message };
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
