import { minimizePii } from '@shared/pii';
import pino from 'pino';
import { redactDeep, redactText } from './redact';

export type Logger = pino.Logger;

/**
 * Every log line is redacted (#12 point 5): the message, every field and every serialized error
 * (message, stack, cause) go through the one redaction (passwords of connection URLs, API keys).
 */
/**
 * The fields of an error a log may carry (#41.5). Drivers hang live objects on their errors —
 * pg-pool's `err.client` holds the connection with its `processID` and `secretKey` (the cancel
 * key) — so a serialized error keeps only these, and its causes the same way.
 */
const ERROR_FIELDS = [
  'type',
  'message',
  'stack',
  'code',
  'errno',
  'syscall',
  'address',
  'port',
  'hostname',
  'path',
  'severity',
  'routine',
  'detail',
  'hint',
  'status',
] as const;

export function serializeError(e: unknown, depth = 0): Record<string, unknown> {
  if (typeof e !== 'object' || e === null) return { message: String(e) };
  // An Error, or what another serializer already made of one (a plain object).
  const full = (e instanceof Error ? pino.stdSerializers.err(e) : e) as unknown as Record<
    string,
    unknown
  >;
  const out: Record<string, unknown> = {};
  for (const k of ERROR_FIELDS) {
    const v = full[k];
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  }
  const cause = (e as { cause?: unknown }).cause;
  if (cause !== undefined && depth < 4) out.cause = serializeError(cause, depth + 1);
  return out;
}

/**
 * Fields that carry a merchant's text, a customer's name or a model request/response body
 * (#38.2): never written to a log, at any depth — the log says only that they were left out.
 */
export const PERSONAL_LOG_FIELDS: ReadonlySet<string> = new Set([
  'texto',
  'resposta',
  'respostas',
  'pergunta',
  'cliente_nome',
  'nome_cliente',
  'dados',
  'dados_revisados',
  'antes',
  'depois',
  'entrada',
  'conteudo',
  'content',
  'messages',
  'system',
  'body',
  'input',
]);
export const OMITTED = '[omitido]';

/** A log string: secrets masked, then personal data replaced with placeholders (#38.2). */
export function redactLogText(s: string): string {
  return minimizePii(redactText(s)).texto;
}

/** Every string redacted and minimised, every personal field left out (a new value). */
export function redactForLog<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactLogText(value) as T;
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => redactForLog(v, depth + 1)) as T;
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, k, {
      value:
        PERSONAL_LOG_FIELDS.has(k) && v !== null && v !== undefined
          ? OMITTED
          : redactForLog(v, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}

export const redactingOptions: pino.LoggerOptions = {
  base: { app: 'balcao' },
  serializers: {
    err: (e: Error) => redactForLog(redactDeep(serializeError(e))),
  },
  formatters: {
    // This runs before the serializers: an Error becomes its safe fields here, or the copy
    // below would keep only its enumerable ones (no message, no stack — and pg-pool's client).
    log: (obj) =>
      redactForLog(
        Object.fromEntries(
          Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? serializeError(v) : v]),
        ),
      ),
    // A child logger's fields too.
    bindings: (b) => redactForLog(b),
  },
  hooks: {
    logMethod(args, method) {
      const redacted = args.map((a) => (typeof a === 'string' ? redactLogText(a) : a));
      method.apply(this, redacted as Parameters<typeof method>);
    },
  },
};

/** JSON logs to stderr (stdout is for command output); `dest` for tests. */
export function createLogger(
  level: string = process.env.BALCAO_LOG_LEVEL ?? 'info',
  dest: pino.DestinationStream = pino.destination(2),
): Logger {
  return pino({ ...redactingOptions, level }, dest);
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = pino({ level: 'silent' });
