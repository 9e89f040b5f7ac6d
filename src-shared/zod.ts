/**
 * The one zod import for the project: configures Brazilian Portuguese messages once, so every
 * schema that reaches a person (IPC, CLI, model feedback) speaks as our users do. zod ships only
 * European Portuguese ("Demasiado grande: esperava que o número fosse <= 100", "ficheiro"), so
 * the map is ours (#41.7); a schema's own message always wins over it.
 */
import { z } from 'zod';

const n = (v: number | bigint) =>
  typeof v === 'bigint' ? v.toLocaleString('pt-BR') : v.toLocaleString('pt-BR');

const TYPE: Record<string, string> = {
  string: 'um texto',
  number: 'um número',
  int: 'um número inteiro',
  bigint: 'um número inteiro',
  boolean: 'sim ou não (true/false)',
  array: 'uma lista',
  object: 'um objeto',
  date: 'uma data',
  null: 'nulo',
};

const FORMAT: Record<string, string> = {
  email: 'de e-mail',
  url: 'de endereço (URL)',
  uuid: 'de identificador (UUID)',
  datetime: 'de data e hora',
  date: 'de data (AAAA-MM-DD)',
  time: 'de hora',
  e164: 'de telefone (+55…)',
  regex: '',
};

const UNIT: Record<string, [string, string]> = {
  string: ['caractere', 'caracteres'],
  array: ['item', 'itens'],
  set: ['item', 'itens'],
  file: ['byte', 'bytes'],
};

const plural = (v: number | bigint, [one, many]: [string, string]) =>
  `${n(v)} ${Number(v) === 1 ? one : many}`;

const list = (values: readonly unknown[]) => values.map((v) => String(v)).join(', ');

/** pt-BR text for one zod issue (exported for tests). */
export function mensagemZod(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Campo obrigatório.';
      return `Tipo inválido: use ${TYPE[issue.expected] ?? issue.expected}.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Valor inválido: use ${String(issue.values[0])}.`
        : `Valor inválido: use um de: ${list(issue.values)}.`;
    case 'too_big': {
      const unit = UNIT[issue.origin];
      if (unit) return `Use até ${plural(issue.maximum, unit)}.`;
      return issue.inclusive
        ? `Use no máximo ${n(issue.maximum)}.`
        : `Use menos de ${n(issue.maximum)}.`;
    }
    case 'too_small': {
      const unit = UNIT[issue.origin];
      if (unit) {
        if (Number(issue.minimum) === 1) {
          return issue.origin === 'string' ? 'Não pode ficar vazio.' : 'Informe ao menos um item.';
        }
        return `Use ao menos ${plural(issue.minimum, unit)}.`;
      }
      return issue.inclusive
        ? `Use no mínimo ${n(issue.minimum)}.`
        : `Use mais de ${n(issue.minimum)}.`;
    }
    case 'invalid_format': {
      const what = FORMAT[issue.format];
      return what ? `Formato inválido ${what}.` : 'Formato inválido.';
    }
    case 'not_multiple_of':
      return `Use um múltiplo de ${n(issue.divisor)}.`;
    case 'unrecognized_keys':
      return issue.keys.length === 1
        ? `Campo não reconhecido: ${issue.keys[0]}.`
        : `Campos não reconhecidos: ${list(issue.keys)}.`;
    default:
      return 'Valor inválido.';
  }
}

z.config({ localeError: mensagemZod });

export { z };
