import { AppError } from '@shared/errors';

/**
 * Maps a database error to a pt-BR AppError. Raw PostgreSQL text never crosses a boundary:
 * only the SQLSTATE class decides the message.
 */
export function mapDbError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const code =
    typeof e === 'object' && e && 'code' in e ? String((e as { code: unknown }).code) : '';
  if (code === '57014') {
    return new AppError(
      'tempo_esgotado',
      'A consulta demorou demais e foi interrompida. Tente um período menor.',
    );
  }
  if (code === '23505') return new AppError('conflito', 'Esse registro já existe.');
  if (code === '23503')
    return new AppError('nao_encontrado', 'Registro relacionado não encontrado.');
  if (code.startsWith('23'))
    return new AppError('entrada_invalida', 'Os dados não passaram nas regras do banco.');
  if (code === '42501')
    return new AppError('acesso_negado', 'Operação não permitida para este usuário do banco.');
  if (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P03' ||
    ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET'].includes(code)
  ) {
    return new AppError(
      'banco_indisponivel',
      'Não foi possível falar com o banco de dados. Verifique se ele está no ar.',
    );
  }
  if (
    e instanceof Error &&
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout/i.test(
      e.message,
    )
  ) {
    return new AppError(
      'banco_indisponivel',
      'Não foi possível falar com o banco de dados. Verifique se ele está no ar.',
    );
  }
  return new AppError('interno', 'Erro inesperado no banco de dados.');
}
