/**
 * The messages of `balcao bench-intake`: deterministic texts a merchant might send, each tagged
 * `[bench:K]`, and what the fake model answers for each (its kind decides the expected outcome).
 */
import { addDays } from '@shared/time';
import { mulberry32 } from '../db/prng';
import type { MensagemEntrada } from '../intake/message';
import type { BenchCharge, BenchKind } from './fake-messages-api';

/** Merchants the bench's messages come from. */
export const BENCH_MERCHANTS = 20;
const NOMES = [
  'João Silva',
  'Maria Souza',
  'Ana Paula Lima',
  'Carlos Eduardo',
  'Fernanda Alves',
  'Pedro Henrique',
  'Juliana Costa',
  'Rafael Oliveira',
];

/** Valid CPFs (check digits right) for the boleto messages: a boleto needs the payer's. */
const CPFS = ['529.982.247-25', '111.444.777-35', '123.456.789-09'];

/** R$ 1.234,56 as a merchant writes it. */
function reais(centavos: number): string {
  const int = Math.floor(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${int},${String(centavos % 100).padStart(2, '0')}`;
}

/** The message kinds, spread evenly: 80% clean, 8% corrected once, 6% incomplete, 3% alert, 3% failed. */
export function kindOf(k: number): BenchKind {
  const slot = (k * 37) % 100;
  if (slot < 80) return 'limpa';
  if (slot < 88) return 'corrigida';
  if (slot < 94) return 'incompleta';
  if (slot < 97) return 'alerta';
  return 'falha';
}

/** The bench's messages: what each says and what the fake model answers. */
export function benchMessages(
  n: number,
  today: string,
): { msgs: MensagemEntrada[]; charges: Map<number, BenchCharge> } {
  const rand = mulberry32(20261201);
  const msgs: MensagemEntrada[] = [];
  const charges = new Map<number, BenchCharge>();
  for (let k = 1; k <= n; k++) {
    const kind = kindOf(k);
    const cartao = rand() < 0.6;
    const c: BenchCharge = {
      kind,
      valor_centavos: 1_000 + Math.floor(rand() * 500_000),
      parcelas: cartao ? 1 + Math.floor(rand() * 6) : 1,
      metodo: cartao ? 'cartao' : rand() < 0.5 ? 'pix' : 'boleto',
      cliente_nome: NOMES[Math.floor(rand() * NOMES.length)]!,
      vencimento: addDays(today, 5 + Math.floor(rand() * 25)),
      cliente_documento: null,
    };
    if (c.metodo === 'boleto') c.cliente_documento = CPFS[k % CPFS.length]!;
    charges.set(k, c);
    const [y, m, d] = c.vencimento.split('-');
    const metodo = c.metodo === 'cartao' ? `no cartão em ${c.parcelas}x` : `no ${c.metodo}`;
    const doc = c.cliente_documento ? ` (CPF ${c.cliente_documento})` : '';
    const para = (kind === 'incompleta' ? '' : ` para ${c.cliente_nome}`) + doc;
    msgs.push({
      canal: 'bench',
      mensagem_id: `bench-${k}`,
      merchant: 1 + (k % BENCH_MERCHANTS),
      texto: `Oi! Gera uma cobrança de ${reais(c.valor_centavos)}${para} ${metodo}, vencimento ${d}/${m}/${y}. [bench:${k}]`,
    });
  }
  return { msgs, charges };
}
