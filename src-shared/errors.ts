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
