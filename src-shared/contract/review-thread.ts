/**
 * The conversation with the merchant in the queue item (#37.4): every message of the item's
 * thread, in and out, with its time and (for ours) the delivery state; and the agent's question,
 * edited before it goes out through the merchant's channel.
 */
import { z } from '../zod';
import { MSG_INVALID_CHARS, validText } from '../text';
import { defineChannel } from './define';

/** Delivery of one of our messages: pendente → enviando → enviada ✓ → entregue ✓✓ → lida; falhou. */
export const ESTADOS_SAIDA = [
  'pendente',
  'enviando',
  'enviada',
  'entregue',
  'lida',
  'falhou',
] as const;
export type EstadoSaida = (typeof ESTADOS_SAIDA)[number];

export interface ThreadMessage {
  /** 'entrada': the merchant's; 'saida': ours (a question, a charge's copia-e-cola, a notice). */
  direcao: 'entrada' | 'saida';
  id: number;
  texto: string;
  /** ISO instant: when the merchant sent it / when ours went out (or was written, if not yet). */
  em: string;
  canal: string;
  /** Ours only. */
  estado: EstadoSaida | null;
  /** Ours that failed: why, in pt-BR. */
  motivo: string | null;
  /** Ours sent outside the 24-hour window as this approved template. */
  modelo: string | null;
}

export interface ItemThread {
  mensagens: ThreadMessage[];
  /** The channel a question from this item goes out through; null: none (copy it by hand). */
  canal: string | null;
}

export const PERGUNTA_MAX = 1000;

const Id = z.number().int().positive();

export const reviewThreadContract = {
  'review/thread': defineChannel<ItemThread>()(z.object({ id: Id }).strict()),
  'review/sendQuestion': defineChannel<{ enviada: boolean; canal: string | null }>()(
    z
      .object({
        id: Id,
        token: z.uuid('Reserva inválida. Abra o item de novo.'),
        pergunta: z
          .string()
          .trim()
          .min(1, 'Escreva a pergunta para o lojista.')
          .max(PERGUNTA_MAX, `Use até ${PERGUNTA_MAX} caracteres.`)
          .refine(validText, MSG_INVALID_CHARS),
      })
      .strict(),
  ),
};
