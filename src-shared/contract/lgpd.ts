/**
 * LGPD (#38.2, #38.4): the data subject's export and anonymisation, and the audited reveal of a
 * masked CPF/CNPJ — supervisors only (permissions.ts). Every other screen gets documents masked.
 */
import { z } from '../zod';
import { titularInputSchema, type LgpdExportacao, type LgpdOrigem } from '../lgpd';
import { defineChannel } from './define';

/** The fields whose CPF/CNPJ a supervisor may reveal. */
export const CAMPOS_REVELAVEIS = [
  'mensagens.texto',
  'extracoes.texto',
  'mensagens_saida.texto',
  'cobrancas.cliente_documento',
] as const;
export type CampoRevelavel = (typeof CAMPOS_REVELAVEIS)[number];

export const LgpdRevealInput = z
  .object({
    campo: z.enum(CAMPOS_REVELAVEIS),
    id: z.number().int().positive(),
  })
  .strict();
export type LgpdRevealInput = z.infer<typeof LgpdRevealInput>;

export const LgpdAnonymiseInput = titularInputSchema
  .extend({ confirmado: z.literal(true, { error: 'Confirme a anonimização.' }) })
  .strict();

export interface LgpdAnonimizado {
  titular: { tipo: string; identificador: string };
  origens: LgpdOrigem[];
  campos: number;
}

export const lgpdContract = {
  'lgpd/exportar': defineChannel<LgpdExportacao>()(titularInputSchema),
  'lgpd/anonimizar': defineChannel<LgpdAnonimizado>()(LgpdAnonymiseInput),
  'lgpd/revelar': defineChannel<{ valor: string }>()(LgpdRevealInput),
} as const;
