/**
 * A charge's dispatch to the PSP (#36.7) as the screens see it: states with their pt-BR labels,
 * the "Falhas no PSP" view, the dispatch history of a charge, send again, cancel (supervisors).
 * Whether a PSP is configured is all the renderer learns of the PSP's configuration.
 */
import { z } from '../zod';
import { defineChannel } from './define';

export const ESTADOS_ENVIO = [
  'pendente',
  'registrada',
  'enviada_ao_lojista',
  'paga',
  'expirada',
  'cancelada',
  'falhou',
] as const;
export type EstadoEnvio = (typeof ESTADOS_ENVIO)[number];

export const ESTADO_ENVIO_LABELS: Record<EstadoEnvio, string> = {
  pendente: 'Pendente',
  registrada: 'Registrada',
  enviada_ao_lojista: 'Enviada ao lojista',
  paga: 'Paga',
  expirada: 'Expirada',
  cancelada: 'Cancelada',
  falhou: 'Falhou',
};

/** Open at the PSP (or about to be): a supervisor may cancel it. */
export const ESTADOS_ENVIO_ABERTOS: readonly EstadoEnvio[] = [
  'pendente',
  'registrada',
  'enviada_ao_lojista',
];

export const SEM_PSP_AVISO =
  'Nenhum PSP configurado: as cobranças ficam pendentes e nada é enviado';

/** A charge's dispatch in a list (Cobranças, Falhas no PSP). */
export interface EnvioResumo {
  estado: EstadoEnvio;
  /** Why it failed or waits, for people (pt-BR). */
  motivo: string | null;
  /** When the state last changed (ISO). */
  atualizadaEm: string;
  copiaECola: string | null;
  /** The payment link (or the PSP's location of the Pix). */
  link: string | null;
}

export interface FalhaPsp {
  cobrancaId: number;
  extracaoId: number;
  merchantId: number;
  merchantNome: string;
  clienteNome: string;
  valorCentavos: number;
  vencimento: string;
  motivo: string;
  tentativas: number;
  atualizadaEm: string;
  /** Whether the merchant has a Pix key now (the usual fix before sending again). */
  temChavePix: boolean;
}

export interface EnvioPasso {
  ocorridoEm: string;
  de: EstadoEnvio | null;
  para: EstadoEnvio | null;
  /** What happened, for people (pt-BR). */
  texto: string;
  operador: string;
}

export interface EnvioHistorico {
  cobrancaId: number;
  estado: EstadoEnvio;
  motivo: string | null;
  passos: EnvioPasso[];
}

const Id = z.number().int().positive();

export const pixContract = {
  'pix/status': defineChannel<{ pspConfigurado: boolean }>()(z.object({}).strict()),
  'pix/failures': defineChannel<{ items: FalhaPsp[] }>()(
    z.object({ limit: z.number().int().min(1).max(500).default(200) }).strict(),
  ),
  'pix/history': defineChannel<EnvioHistorico | null>()(z.object({ cobrancaId: Id }).strict()),
  /** Sends a failed (or waiting) charge again, now. */
  'pix/resend': defineChannel<{ estado: EstadoEnvio; motivo: string | null }>()(
    z.object({ cobrancaId: Id }).strict(),
  ),
  /** Supervisors: cancels an open charge at the PSP and here (audited). */
  'pix/cancel': defineChannel<{ estado: EstadoEnvio; motivo: string | null }>()(
    z.object({ cobrancaId: Id }).strict(),
  ),
} as const;
