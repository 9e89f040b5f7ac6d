import { AppError, isAppError } from '@shared/errors';

/** Where a command writes; tests pass buffers. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal, or BALCAO_PROGRESSO=1 (progress only then: CI logs may ask). */
  isTTY: boolean;
  /**
   * A secret (password): the first line of standard input when `fromStdin` or stdin is not a
   * terminal, otherwise typed at `prompt` without echo. Absent = no way to read one.
   */
  readSecret?(prompt: string, fromStdin: boolean): Promise<string>;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
  isTTY: Boolean(process.stderr.isTTY) || process.env.BALCAO_PROGRESSO === '1',
  async readSecret(prompt, fromStdin) {
    const { promptHidden, readStdinLine } = await import('./secret');
    return fromStdin || !process.stdin.isTTY ? readStdinLine() : promptHidden(prompt);
  },
};

/** A failure with a pt-BR message and an exit code (1 = refused/failed, 2 = usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function toCliError(e: unknown): CliError {
  if (e instanceof CliError) return e;
  if (isAppError(e)) return new CliError(e.message, e.code === 'entrada_invalida' ? 2 : 1);
  return new CliError('Erro inesperado. Veja o log (BALCAO_LOG_LEVEL=debug) para detalhes.');
}

export { AppError };
