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
  const system = systemErrorMessage(e);
  if (system) return new CliError(system);
  return new CliError('Erro inesperado. Veja o log (BALCAO_LOG_LEVEL=debug) para detalhes.');
}

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  path?: unknown;
}

/**
 * The operating system's refusals a user can cause — a port in use, an address that is not this
 * machine's, a folder given for a file — in pt-BR, naming the cause (#41.4). Null for anything
 * else (which stays "Erro inesperado", with the error in the log).
 */
export function systemErrorMessage(e: unknown): string | null {
  if (typeof e !== 'object' || e === null) return null;
  const x = e as SystemError;
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const code = str(x.code);
  const where = str(x.address) + (str(x.port) ? `:${str(x.port)}` : '');
  const path = str(x.path);
  const listen = x.syscall === 'listen' || x.syscall === 'bind';
  switch (code) {
    case 'EADDRINUSE':
      return `A porta ${str(x.port) || '?'} já está em uso${str(x.address) ? ` em ${str(x.address)}` : ''} (outro programa, ou outro balcao serve, escuta nela). Escolha outra com --port.`;
    case 'EADDRNOTAVAIL':
      return `O endereço ${str(x.address) || '?'} não é desta máquina. Use em --host um endereço dela (127.0.0.1 só para esta máquina, 0.0.0.0 para todas as interfaces).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `Endereço desconhecido: ${str(x.hostname) || '?'}. Verifique o nome ou o IP informado (um IPv4 tem quatro números de 0 a 255).`;
    case 'EACCES':
    case 'EPERM':
      if (listen) {
        return `Sem permissão para escutar em ${where || 'esta porta'} (portas abaixo de 1024 pedem privilégio). Use uma porta acima de 1024 com --port.`;
      }
      return path ? `Sem permissão para abrir ${path}.` : null;
    case 'EISDIR':
      return `${path ? `${path} é` : 'O caminho informado é'} uma pasta; informe um arquivo.`;
    case 'ENOENT':
      return path ? `Arquivo ou pasta não encontrado: ${path}.` : null;
    case 'ENOTDIR':
      return path ? `Caminho inválido: uma parte de ${path} não é uma pasta.` : null;
    case 'ECONNREFUSED':
      return `Conexão recusada em ${where || 'o endereço configurado'}: não há serviço no ar nesse endereço e porta.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Não foi possível alcançar ${where || 'o endereço configurado'} (sem resposta da rede).`;
    default:
      return null;
  }
}

export { AppError };
