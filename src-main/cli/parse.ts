import { InvalidArgumentError } from 'commander';
import { DATA_MAXIMA, DATA_MINIMA, dataNoIntervalo } from '@shared/sales-dsl';
import { formatDateBR, isIsoDate } from '@shared/time';

/** Commander argument parsers with pt-BR messages. */
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

export function isoDateArg(value: string): string {
  if (!isIsoDate(value)) throw new InvalidArgumentError('use uma data real no formato AAAA-MM-DD.');
  if (!dataNoIntervalo(value)) {
    throw new InvalidArgumentError(
      `use uma data entre ${formatDateBR(DATA_MINIMA)} e ${formatDateBR(DATA_MAXIMA)}.`,
    );
  }
  return value;
}
