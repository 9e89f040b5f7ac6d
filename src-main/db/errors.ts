/**
 * THE PostgreSQL error mapper: every database failure (SQLSTATE, driver and socket errors)
 * becomes a pt-BR AppError that says what happened. Raw PostgreSQL text never crosses a
 * boundary; the original error travels as the AppError's `cause` (never serialized to the UI or
 * the model) so the log can hold code, message and stack. The free-SQL executor uses the same
 * table with its own wording for query errors (`kind: 'consulta_livre'`).
 */
import { AppError, type ErrorCode } from '@shared/errors';

/** What the failing operation was doing, so the message can say what was (not) saved. */
export type DbPhase =
  /** Taking a connection. */
  | 'conexao'
  /** A read: nothing to save. */
  | 'leitura'
  /** Inside a write transaction before COMMIT: nothing was saved. */
  | 'escrita'
  /** The COMMIT itself: the outcome is unknown. */
  | 'commit';

export interface DbErrorContext {
  phase?: DbPhase;
  /** Free SQL: query errors are the query's fault, worded for the person who wrote it. */
  kind?: 'consulta_livre';
  /** statement_timeout of a query (for the message), ms. */
  timeoutMs?: number;
  /** Free SQL: the guard's refusal for reading anything but the sales view. */
  onlyViewMessage?: string;
}

export const MSG_DB_UNREACHABLE =
  'Não foi possível falar com o banco de dados. Verifique se ele está no ar.';
/** The same, for the people in the window (#42.6): what to do, not a server to check. */
export const MSG_DB_UNREACHABLE_APP =
  'Não foi possível falar com o banco de dados agora. Tente de novo em instantes; se continuar, avise o administrador.';
export const MSG_LOCK_TIMEOUT = 'Outro agente está mexendo neste pedido; tente de novo.';
export const MSG_UNEXPECTED_DB = 'Erro inesperado no banco de dados.';

const SOCKET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function codeOf(e: unknown): string {
  return typeof e === 'object' && e && 'code' in e ? String((e as { code: unknown }).code) : '';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : '';
}

/**
 * The connection died under a running operation (backend terminated, server restart or crash,
 * network drop, idle-in-transaction timeout, or a client already marked as lost).
 */
export function isConnectionLost(e: unknown): boolean {
  if (e instanceof AppError) return e.cause !== undefined && isConnectionLost(e.cause);
  const code = codeOf(e);
  if (code === '57P01' || code === '57P02' || code === '25P03') return true;
  if (code.startsWith('08') && code !== '08001' && code !== '08004') return true;
  if (SOCKET_CODES.has(code)) return true;
  // 'Query read timeout': node-pg's client-side read deadline (a hung server or pooler).
  return /Connection terminated|not queryable|Client was closed|connection is closed|Connection ended|Query read timeout/i.test(
    messageOf(e),
  );
}

/** The server could not be reached or refused the connection (nothing ran). */
export function isUnreachable(e: unknown): boolean {
  if (e instanceof AppError) return false;
  const code = codeOf(e);
  if (UNREACHABLE_CODES.has(code) || code === '57P03' || code === '08001' || code === '08004')
    return true;
  return /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(
    messageOf(e),
  );
}

function lostMessage(phase: DbPhase | undefined): string {
  switch (phase) {
    case 'escrita':
      return 'A conexão com o banco caiu no meio da operação e nada foi salvo. Tente de novo.';
    case 'commit':
      return 'A conexão com o banco caiu enquanto a operação era gravada: ela pode ter sido salva ou não. Recarregue para conferir antes de repetir.';
    case 'leitura':
      return 'A conexão com o banco caiu durante a consulta (nada foi alterado). Tente de novo.';
    default:
      return 'A conexão com o banco caiu no meio da operação. Tente de novo.';
  }
}

function withCause(err: AppError, cause: unknown): AppError {
  Object.defineProperty(err, 'cause', { value: cause, enumerable: false, configurable: true });
  return err;
}

// 42601: a syntax error of the wrapped text — it was not one SELECT (EXPLAIN, SET, SHOW, COPY, a
// stray parenthesis…). Layer 1 refuses these first; without it this is still a refusal.
/** Free SQL: SQLSTATEs of a query that reached beyond the sales view (or was not one SELECT). */
const FREE_SQL_ONLY_VIEW = new Set([
  '42601',
  '42501',
  '42P01',
  '42883',
  '3F000',
  '25006',
  '0A000',
  '42P10',
]);

const FREE_SQL_RESOURCES =
  'consulta recusada: a consulta usou recursos demais (memória, disco ou tamanho) e foi interrompida';

const FREE_SQL_DATE_RANGE =
  'A consulta falhou: uma data ficou fora do intervalo aceito (anos 4713 a.C. a 294276 d.C.).';

/** Free SQL: the refusal of a query's own fault, by SQLSTATE, then by class (first two). */
const FREE_SQL_BY_SQLSTATE = new Map([
  [
    '54011',
    'consulta recusada: agrupamento com colunas demais (CUBE e GROUPING SETS aceitam no máximo 12 colunas)',
  ],
  ['22012', 'A consulta falhou: divisão por zero.'],
  ['22008', FREE_SQL_DATE_RANGE],
  ['22009', FREE_SQL_DATE_RANGE],
  ['42703', 'A consulta usa uma coluna que não existe na visão de vendas.'],
]);
const FREE_SQL_BY_CLASS = new Map([
  ['53', FREE_SQL_RESOURCES],
  ['54', FREE_SQL_RESOURCES],
  ['22', 'A consulta falhou: um valor não pôde ser convertido ou calculado.'],
  ['42', 'A consulta não é válida para a visão de vendas (verifique agrupamentos, tipos e nomes).'],
]);

/** Free-SQL wording for errors that are the query's own fault (null = use the common table). */
function freeSqlMessage(code: string, ctx: DbErrorContext): AppError | null {
  const timeoutMs = ctx.timeoutMs;
  if (code === '57014') {
    const s = ((timeoutMs ?? 0) / 1000).toLocaleString('pt-BR');
    return new AppError(
      'tempo_esgotado',
      timeoutMs
        ? `A consulta livre passou do limite de ${s} s e foi interrompida.`
        : 'A consulta livre passou do limite de tempo e foi interrompida.',
    );
  }
  if (FREE_SQL_ONLY_VIEW.has(code)) {
    return new AppError(
      'consulta_recusada',
      ctx.onlyViewMessage ?? 'consulta recusada: só é permitido ler a visão de vendas',
    );
  }
  const message = FREE_SQL_BY_SQLSTATE.get(code) ?? FREE_SQL_BY_CLASS.get(code.slice(0, 2));
  return message ? new AppError('consulta_recusada', message) : null;
}

/** An error's code and its pt-BR message. */
type Mapped = readonly [ErrorCode, string];

const CONCURRENT: Mapped = [
  'conflito',
  'Outra operação mudou os mesmos dados ao mesmo tempo; nada foi salvo. Tente de novo.',
];
const DATE_RANGE: Mapped = [
  'entrada_invalida',
  'Uma data está fora do intervalo aceito pelo banco de dados (use datas entre os anos 1 e 9999).',
];
const INVALID_TEXT: Mapped = [
  'entrada_invalida',
  'O texto contém caracteres inválidos (caractere nulo ou sequência de bytes inválida). Remova-os e tente de novo.',
];

/** SQLSTATEs with one message, whatever the operation was doing. */
const BY_SQLSTATE = new Map<string, Mapped>([
  ['55P03', ['conflito', MSG_LOCK_TIMEOUT]],
  ['40001', CONCURRENT],
  ['40P01', CONCURRENT],
  [
    '25P02',
    [
      'interno',
      'A operação foi abortada no banco por um erro anterior; nada foi salvo. Tente de novo.',
    ],
  ],
  ['23505', ['conflito', 'Esse registro já existe.']],
  ['23503', ['nao_encontrado', 'Registro relacionado não encontrado.']],
  ['42501', ['acesso_negado', 'Operação não permitida para este usuário do banco.']],
  ['22008', DATE_RANGE],
  ['22007', DATE_RANGE],
  ['22009', DATE_RANGE],
  ['22021', INVALID_TEXT],
  ['22P05', INVALID_TEXT],
  ['22P06', INVALID_TEXT],
  ['22P02', ['entrada_invalida', 'Um valor não está no formato esperado.']],
  ['22003', ['entrada_invalida', 'Um número passou do intervalo aceito.']],
  ['22001', ['entrada_invalida', 'Um texto passou do tamanho máximo aceito.']],
  [
    '54011',
    [
      'consulta_recusada',
      'A consulta agrupa por colunas demais (CUBE e GROUPING SETS aceitam no máximo 12 colunas).',
    ],
  ],
  ['34000', ['entrada_invalida', 'Cursor de paginação inválido. Recarregue a lista.']],
  [
    '3D000',
    [
      'configuracao',
      'O banco de dados informado não existe. Verifique o nome do banco em DATABASE_URL (ou crie-o).',
    ],
  ],
  [
    '28000',
    [
      'configuracao',
      'O usuário do banco não existe ou não tem permissão para entrar. Verifique DATABASE_URL, APP_DATABASE_URL e ANALYTICS_DATABASE_URL (e rode balcao db migrate).',
    ],
  ],
  [
    '28P01',
    [
      'configuracao',
      'O banco recusou o usuário ou a senha. Verifique as credenciais em DATABASE_URL, APP_DATABASE_URL e ANALYTICS_DATABASE_URL.',
    ],
  ],
  [
    '53300',
    [
      'banco_indisponivel',
      'O banco de dados atingiu o limite de conexões. Tente de novo em instantes.',
    ],
  ],
  [
    '25006',
    ['acesso_negado', 'Esta conexão do banco é somente leitura: a operação não foi feita.'],
  ],
]);

/** Whole SQLSTATE classes (the code's first two characters), for a code not in the table. */
const BY_CLASS = new Map<string, Mapped>([
  [
    '53',
    [
      'banco_indisponivel',
      'O banco de dados está sem recursos (memória, disco ou conexões). Tente de novo em instantes.',
    ],
  ],
  [
    '54',
    [
      'consulta_recusada',
      'A operação passou de um limite do banco de dados (tamanho ou complexidade).',
    ],
  ],
  ['23', ['entrada_invalida', 'Os dados não passaram nas regras do banco.']],
]);

function mapCode(e: unknown, code: string, ctx: DbErrorContext): AppError {
  if (isConnectionLost(e)) {
    if (code === '25P03') {
      return new AppError(
        'tempo_esgotado',
        'A operação ficou parada tempo demais dentro do banco e foi encerrada; nada foi salvo. Tente de novo.',
      );
    }
    return new AppError('banco_indisponivel', lostMessage(ctx.phase));
  }
  if (isUnreachable(e)) {
    if (code === '57P03') {
      return new AppError(
        'banco_indisponivel',
        'O banco de dados está iniciando ou em manutenção. Tente de novo em instantes.',
      );
    }
    if (/timeout exceeded when trying to connect/i.test(messageOf(e))) {
      return new AppError(
        'banco_indisponivel',
        'O banco de dados não respondeu a tempo (servidor lento, fora do ar ou todas as conexões ocupadas). Tente de novo em instantes.',
      );
    }
    return new AppError('banco_indisponivel', MSG_DB_UNREACHABLE);
  }
  if (ctx.kind === 'consulta_livre') {
    const free = freeSqlMessage(code, ctx);
    if (free) return free;
  }
  // Class BL: refusals raised by Balcão's own triggers (migration 0720), written in pt-BR for
  // people (who holds the item, what only a supervisor may do).
  if (/^BL[0-9A-Z]{3}$/.test(code)) return new AppError('acesso_negado', messageOf(e));
  if (code === '57014') {
    return new AppError(
      'tempo_esgotado',
      ctx.phase === 'escrita' || ctx.phase === 'commit'
        ? 'A operação demorou demais no banco e foi interrompida; nada foi salvo. Tente de novo.'
        : 'A consulta demorou demais e foi interrompida. Tente um período menor.',
    );
  }
  const fixed = BY_SQLSTATE.get(code) ?? BY_CLASS.get(code.slice(0, 2));
  if (fixed) return new AppError(...fixed);
  if (ctx.kind === 'consulta_livre') {
    return new AppError('consulta_recusada', 'A consulta livre falhou no banco de dados.');
  }
  return new AppError('interno', MSG_UNEXPECTED_DB);
}

/**
 * Maps a database error to a pt-BR AppError (an AppError passes through unchanged). The
 * original error is kept as `cause` for the log; only the SQLSTATE (or the driver's socket
 * condition) decides the message.
 */
export function mapDbError(e: unknown, ctx: DbErrorContext = {}): AppError {
  if (e instanceof AppError) return e;
  return withCause(mapCode(e, codeOf(e), ctx), e);
}

/** The driver error behind a mapped AppError (or the error itself). */
export function rawDbError(e: unknown): unknown {
  return e instanceof AppError && e.cause !== undefined ? e.cause : e;
}
