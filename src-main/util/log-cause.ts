import { AppError } from '@shared/errors';

/**
 * For the log: the error behind an AppError — a database error's code, message, stack, detail
 * and routine — if any.
 */
export function causeForLog(e: unknown): Record<string, unknown> | undefined {
  const cause = (e as { cause?: unknown } | null)?.cause ?? (e instanceof AppError ? undefined : e);
  if (!cause || typeof cause !== 'object') return undefined;
  const c = cause as Record<string, unknown>;
  return {
    code: c.code,
    message: c.message,
    stack: c.stack,
    ...(c.detail ? { detail: c.detail } : {}),
    ...(c.routine ? { routine: c.routine } : {}),
  };
}
