import { AppError } from '@shared/errors';

/**
 * Opaque keyset cursors: base64url JSON of [kind, ...key values]. The kind must match the
 * listing (a cursor from another sort is refused instead of silently skipping rows).
 */
export function encodeCursor(kind: string, values: (string | number)[]): string {
  return Buffer.from(JSON.stringify([kind, ...values])).toString('base64url');
}

export function decodeCursor(
  cursor: string,
  kind: string,
  shape: ('s' | 'n')[],
): (string | number)[] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v[0] === kind && v.length === shape.length + 1) {
      const rest = v.slice(1) as unknown[];
      const ok = rest.every((x, i) =>
        shape[i] === 'n' ? Number.isSafeInteger(x) : typeof x === 'string' && x.length < 80,
      );
      if (ok) return rest as (string | number)[];
    }
  } catch {
    // fall through
  }
  throw new AppError('entrada_invalida', 'Cursor de paginação inválido. Recarregue a lista.');
}
