import { AppError } from '@shared/errors';
import { hasInvalidChars } from '@shared/text';

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
  shape: ('s' | 'n' | 't')[],
): (string | number)[] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v[0] === kind && v.length === shape.length + 1) {
      const rest = v.slice(1) as unknown[];
      const ok = rest.every((x, i) =>
        shape[i] === 'n'
          ? Number.isSafeInteger(x)
          : shape[i] === 't'
            ? isTimestampText(x)
            : typeof x === 'string' && x.length < 80 && !hasInvalidChars(x),
      );
      if (ok) return rest as (string | number)[];
    }
  } catch {
    // fall through
  }
  throw new AppError('entrada_invalida', 'Cursor de paginação inválido. Recarregue a lista.');
}

/**
 * A timestamptz as PostgreSQL prints it (`2026-11-30 15:00:00.123456+00`), years 1–9999: a
 * forged cursor is refused here instead of reaching the database as a bad date (22007/22008).
 */
function isTimestampText(x: unknown): boolean {
  if (typeof x !== 'string' || x.length > 40) return false;
  const m =
    /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:[+-]\d{2}(?::?\d{2}){0,2}|Z)?$/.exec(
      x,
    );
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as number[];
  return (
    y! >= 1 && mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= 31 && h! <= 23 && mi! <= 59 && se! <= 60
  );
}
