import pino from 'pino';

export type Logger = pino.Logger;

/** JSON logs to stderr (stdout is for command output). */
export function createLogger(level: string = process.env.BALCAO_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { app: 'balcao' } }, pino.destination(2));
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = pino({ level: 'silent' });
