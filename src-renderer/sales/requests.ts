import type { AppErrorShape } from '@shared/errors';
import { ApiError } from '../api';

/** The pt-BR error of a failed call (or a generic one for a bug in the page). */
export function errorShape(e: unknown): AppErrorShape {
  if (e instanceof ApiError) {
    return Object.keys(e.fields).length
      ? { code: e.code, message: e.message, fields: e.fields }
      : { code: e.code, message: e.message };
  }
  return { code: 'interno', message: 'Erro inesperado na interface. Tente de novo.' };
}

/** A request id the main process accepts (letters and digits), for progress and cancel. */
export function newRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}
