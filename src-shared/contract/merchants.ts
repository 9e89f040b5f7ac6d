/**
 * The supervisor's merchant screen (#36.5, #37.1): find a merchant, set its Pix key (validated as
 * the CLI does: src-shared/pix.ts), add and remove its WhatsApp numbers (one number → one
 * merchant), and see its charges waiting in "Falhas no PSP". Supervisors only (permissions.ts);
 * every change audited.
 */
import type { TipoChavePix } from '../pix';
import { z } from '../zod';
import { defineChannel } from './define';
import type { FalhaPsp } from './pix';

export const TIPO_CHAVE_PIX_LABELS: Record<TipoChavePix, string> = {
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  telefone: 'Telefone',
  evp: 'Chave aleatória',
};

/** A merchant in the list. */
export interface LojistaResumo {
  id: number;
  nome: string;
  chavePix: string | null;
  /** WhatsApp numbers registered to it. */
  contatos: number;
  /** Its charges in "Falhas no PSP". */
  falhas: number;
}

export interface LojistaContato {
  /** E.164 (+5511987654321). */
  telefone: string;
  criadoEm: string;
  criadoPor: string;
}

export interface LojistaDetalhe {
  id: number;
  nome: string;
  chavePix: string | null;
  chaveTipo: TipoChavePix | null;
  contatos: LojistaContato[];
  /** Its charges in "Falhas no PSP", the newest change first. */
  falhas: (FalhaPsp & { /** Failed because the merchant had no Pix key. */ semChave: boolean })[];
}

const MerchantId = z.number().int().positive();

export const MerchantListInput = z
  .object({
    /** Code (exact), name, Pix key or WhatsApp number (part of it). */
    busca: z.string().trim().max(80, 'Busca longa demais (máximo 80 caracteres).').default(''),
    /** Only merchants without a Pix key. */
    semChave: z.boolean().default(false),
    /** Keyset: the last id of the previous page. */
    depoisDe: MerchantId.optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export const merchantsContract = {
  'merchants/list': defineChannel<{ items: LojistaResumo[]; proximo: number | null }>()(
    MerchantListInput,
  ),
  'merchants/get': defineChannel<LojistaDetalhe>()(z.object({ merchantId: MerchantId }).strict()),
  /** Sets (or changes) the Pix key; validated and normalised as the DICT keeps it; audited. */
  'merchants/setPixKey': defineChannel<{ chavePix: string; tipo: TipoChavePix }>()(
    z
      .object({
        merchantId: MerchantId,
        chave: z.string().max(200, 'Chave Pix longa demais (máximo 77 caracteres).'),
      })
      .strict(),
  ),
  /** Registers a WhatsApp number (E.164); refused when it belongs to another merchant; audited. */
  'merchants/addContact': defineChannel<{ telefone: string; criado: boolean }>()(
    z
      .object({
        merchantId: MerchantId,
        telefone: z.string().max(40, 'Telefone longo demais.'),
      })
      .strict(),
  ),
  'merchants/removeContact': defineChannel<{ telefone: string }>()(
    z
      .object({
        merchantId: MerchantId,
        telefone: z.string().max(40, 'Telefone longo demais.'),
      })
      .strict(),
  ),
} as const;
