import { InvalidArgumentError } from 'commander';
import { dataNoIntervalo, FAIXA_DATAS_BR } from '@shared/date-bounds';

/** Commander argument parsers with pt-BR messages (light: no zod or luxon before a command runs). */
export function positiveInt(max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError('use um número inteiro positivo.');
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1 || n > max) {
      throw new InvalidArgumentError(`use um inteiro entre 1 e ${max.toLocaleString('pt-BR')}.`);
    }
    return n;
  };
}

/** A whole number from `min` to `max`. */
export function intRange(min: number, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        `use um inteiro de ${min.toLocaleString('pt-BR')} a ${max.toLocaleString('pt-BR')}.`,
      );
    }
    return n;
  };
}

/** A PostgreSQL database name we create (lower case, digits and _, up to 63). */
export function databaseNameArg(v: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(v)) {
    throw new InvalidArgumentError('use letras minúsculas, dígitos e _ (até 63).');
  }
  return v;
}

/** A real calendar date, YYYY-MM-DD. */
function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export function isoDateArg(value: string): string {
  if (!isRealDate(value))
    throw new InvalidArgumentError('use uma data real no formato AAAA-MM-DD.');
  if (!dataNoIntervalo(value)) {
    throw new InvalidArgumentError(`use uma data entre ${FAIXA_DATAS_BR}.`);
  }
  return value;
}
