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
  /**
   * Asks a yes/no question at the terminal ("s" or "sim" is yes; anything else, no). Absent, or
   * null when standard input is not a terminal: there is no one to ask (scripts pass --sim).
   */
  confirm?(question: string): Promise<boolean | null>;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
  isTTY: Boolean(process.stderr.isTTY) || process.env.BALCAO_PROGRESSO === '1',
  async readSecret(prompt, fromStdin) {
    const { promptHidden, readStdinLine } = await import('./secret');
    return fromStdin || !process.stdin.isTTY ? readStdinLine() : promptHidden(prompt);
  },
  async confirm(question) {
    if (!process.stdin.isTTY) return null;
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return isYes(await rl.question(`${question} [s/N] `));
    } finally {
      rl.close();
    }
  },
};

/** "s", "sim" (any case, accents or spaces around): yes. */
export function isYes(answer: string): boolean {
  return /^(s|sim)$/i.test(answer.trim());
}

/**
 * The confirmation of a command that changes something: `--sim` answers for a script; else the
 * terminal is asked. No terminal and no --sim is a usage error (exit 2) that says what to do.
 */
export async function confirmOrSim(
  io: CliIO,
  question: string,
  sim: boolean | undefined,
): Promise<boolean> {
  if (sim) return true;
  const answer = io.confirm ? await io.confirm(question) : null;
  if (answer === null) {
    throw new CliError(
      'Sem terminal para confirmar: repita com --sim para aplicar sem perguntar.',
      2,
    );
  }
  return answer;
}

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
