import type { DadosCobranca, Metodo } from './extraction-types';
import { formatBRL } from './money';
import { fieldLabel } from './rule-text';
import { formatDateBR, isIsoDate } from './time';

const WEEKDAY = new Intl.DateTimeFormat('pt-BR', { weekday: 'short', timeZone: 'UTC' });

/** "sex., 04/12/2026" for a YYYY-MM-DD date. */
export function formatDueDate(iso: string): string {
  if (!isIsoDate(iso)) return iso;
  return `${WEEKDAY.format(new Date(`${iso}T12:00:00Z`))}, ${formatDateBR(iso)}`;
}

export const METODO_LABEL: Record<Metodo, string> = {
  pix: 'Pix',
  boleto: 'boleto',
  cartao: 'cartão',
};

const NO_METODO: Record<Metodo, string> = {
  pix: 'no Pix',
  boleto: 'no boleto',
  cartao: 'no cartão',
};

/** How the installments read: "em 3x de R$ 50,00" (remainder cents on the first one). */
export function installments(valor: number, parcelas: number): string {
  if (parcelas <= 1) return 'à vista';
  const each = Math.floor(valor / parcelas);
  const first = valor - each * (parcelas - 1);
  return first === each
    ? `em ${parcelas}x de ${formatBRL(each)}`
    : `em ${parcelas}x de ${formatBRL(each)} (1ª de ${formatBRL(first)})`;
}

type Readable = Pick<
  DadosCobranca,
  'valor_centavos' | 'parcelas' | 'metodo' | 'cliente_nome' | 'vencimento'
>;

/**
 * The charge as a person reads it before confirming:
 * "R$ 150,00 em 3x de R$ 50,00 no cartão · João Silva · vence sex., 04/12/2026".
 * Missing parts say so instead of hiding.
 */
export function describeCharge(d: Readable): string {
  const valor = d.valor_centavos === null ? 'valor não informado' : formatBRL(d.valor_centavos);
  let how: string;
  if (d.valor_centavos !== null && d.parcelas !== null && d.parcelas > 1) {
    how = installments(d.valor_centavos, d.parcelas);
  } else if (d.parcelas === null) {
    how = 'parcelas não informadas';
  } else {
    how = d.metodo === 'cartao' ? 'à vista' : '';
  }
  const metodo = d.metodo ? NO_METODO[d.metodo] : 'forma de pagamento não informada';
  const first = [valor, how, metodo].filter(Boolean).join(' ');
  const cliente = d.cliente_nome ?? 'cliente não informado';
  const vence = d.vencimento ? `vence ${formatDueDate(d.vencimento)}` : 'vencimento não informado';
  return [first, cliente, vence].join(' · ');
}

/** A field value as people read it ("R$ 150,00", "cartão", "sex., 04/12/2026", "—"). */
export function formatFieldValue(campo: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (campo === 'valor_centavos' && typeof v === 'number') return formatBRL(v);
  if (campo === 'metodo' && typeof v === 'string') return METODO_LABEL[v as Metodo] ?? v;
  if (campo === 'vencimento' && typeof v === 'string') return formatDueDate(v);
  if (campo === 'parcelas' && typeof v === 'number') return `${v}x`;
  if (Array.isArray(v)) return v.length ? v.map((x) => fieldLabel(String(x))).join(', ') : '—';
  return String(v);
}
