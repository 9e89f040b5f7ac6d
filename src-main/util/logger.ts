import pino from 'pino';
import { redactDeep, redactText } from './redact';

export type Logger = pino.Logger;

/**
 * Every log line is redacted (#12 point 5): the message, every field and every serialized error
 * (message, stack, cause) go through the one redaction (passwords of connection URLs, API keys).
 */
export const redactingOptions: pino.LoggerOptions = {
  base: { app: 'balcao' },
  serializers: {
    err: (e: Error) => redactDeep(pino.stdSerializers.err(e)),
  },
  formatters: {
    log: (obj) => redactDeep(obj),
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
