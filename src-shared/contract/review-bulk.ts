/**
 * Bulk actions on the review queue (#39.5), a supervisor's: several items selected → assign to a
 * person, discard with one reason, reopen. Each item is done (its change and its audit entry in
 * one transaction) or skipped with a pt-BR reason — never half-applied.
 */
import { z } from '../zod';
import { defineChannel } from './define';
import { DISCARD_DETAIL_MSG, DiscardWhy, ReopenMotivo, discardDetailOk } from './review';

/** At most this many items per bulk action (a page of the queue is at most 200). */
export const BULK_MAX = 200;

export const BULK_ACTIONS = ['atribuir', 'descartar', 'reabrir'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

const Ids = z
  .array(z.number().int().positive())
  .min(1, 'Selecione ao menos um pedido.')
  .max(BULK_MAX, `Selecione no máximo ${BULK_MAX} pedidos por vez.`)
  .refine((ids) => new Set(ids).size === ids.length, 'Um pedido aparece duas vezes na seleção.');

/** A person's login (as `balcao usuarios criar` accepts it). */
const Login = z
  .string()
  .trim()
  .regex(/^[a-z_][a-z0-9_.-]{1,62}$/, 'Escolha uma pessoa da lista.');

export const BulkInput = z.discriminatedUnion(
  'acao',
  [
    z.object({ acao: z.literal('atribuir'), ids: Ids, para: Login }).strict(),
    z
      .object({ acao: z.literal('descartar'), ids: Ids, ...DiscardWhy })
      .strict()
      .refine(discardDetailOk, DISCARD_DETAIL_MSG),
    z.object({ acao: z.literal('reabrir'), ids: Ids, motivo: ReopenMotivo }).strict(),
  ],
  'Escolha uma ação: atribuir, descartar ou reabrir.',
);
export type BulkInput = z.output<typeof BulkInput>;

/** One item's outcome: done, or skipped with why (pt-BR). */
export type BulkItemResult =
  { id: number; feito: true } | { id: number; feito: false; motivo: string };

export interface BulkResult {
  acao: BulkAction;
  feitos: number;
  ignorados: number;
  /** In the order of the input's ids. */
  itens: BulkItemResult[];
}

/** Someone who works the queue (suporte or supervisor), for "Atribuir a…". */
export interface Assignee {
  login: string;
  /** "Suporte", "Supervisor". */
  papeis: string;
}

export const reviewBulkContract = {
  /** Supervisors: one action on many items, each audited on its own. */
  'review/bulk': defineChannel<BulkResult>()(BulkInput),
  /** Supervisors: the people an item can be assigned to. */
  'review/assignees': defineChannel<{ pessoas: Assignee[] }>()(z.object({}).strict()),
} as const;
