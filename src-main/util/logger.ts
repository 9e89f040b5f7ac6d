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

export const redactingOptions: pino.LoggerOptions = {
  base: { app: 'balcao' },
  serializers: {
    err: (e: Error) => redactDeep(serializeError(e)),
  },
  formatters: {
    // This runs before the serializers: an Error becomes its safe fields here, or the copy
    // below would keep only its enumerable ones (no message, no stack — and pg-pool's client).
    log: (obj) =>
      redactDeep(
        Object.fromEntries(
          Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? serializeError(v) : v]),
        ),
      ),
  },
  hooks: {
    logMethod(args, method) {
      const redacted = args.map((a) => (typeof a === 'string' ? redactText(a) : a));
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
