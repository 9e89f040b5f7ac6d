/**
 * One adapter interface for the dispatcher (#36.4): each way of charging registers a charge
 * idempotently and says, when asked, what became of it. The dispatcher (`dispatch.ts`) owns the
 * states, events, retries and the checks of amount and due day; an adapter only speaks to its
 * provider and throws {@link PspError} (transitorio → retried with backoff; recusado/conflito →
 * `falhou` with the reason).
 * - Pix: the API Pix (`PUT /cob/{txid}`, or `PUT /cobv/{txid}` with the payer's CPF/CNPJ).
 * - Card and boleto: the company's payment-link service (`PUT /links/{id}` with Idempotency-Key).
 */
import { centavosParaDecimal, decimalParaCentavos } from '@shared/pix';
import { tipoDocumento } from '@shared/documento';
import { PspError, type CobGerada, type PixClient } from './client';
import type { LinkClient, LinkSolicitado } from './links';

/** What a charge looks like to an adapter (a row of `cobrancas_envios` with its charge). */
export interface ChargeForAdapter {
  txid: string;
  tipo: 'cob' | 'cobv' | 'link' | null;
  valor_centavos: string;
  parcelas: number;
  metodo: string;
  vencimento: string;
  descricao: string | null;
  cliente_nome: string;
  cliente_documento: string | null;
  chave_pix: string | null;
}

/** A registration the provider accepted: what the merchant sends to the customer. */
export interface Registro {
  tipo: 'cob' | 'cobv' | 'link';
  location: string | null;
  copia_e_cola: string | null;
  link: string | null;
  link_id: string | null;
  psp_status: string | null;
}

/** The provider's view of a registered charge. */
export type Consulta =
  | { situacao: 'paga'; recebido_centavos: number | null; detalhes: Record<string, unknown> }
  | { situacao: 'removida'; psp_status: string }
  | { situacao: 'aberta'; psp_status: string | null };

export interface ChargeAdapter {
  /** The provider's name for messages ("PSP", "serviço de links"). */
  readonly nome: string;
  /** Registers the charge; the same charge always registers once (txid/id fixed per charge). */
  register(c: ChargeForAdapter, ctx: { expiracaoS: number }): Promise<Registro>;
  /** What the provider says now about a registered charge. */
  consult(c: ChargeForAdapter): Promise<Consulta>;
  /** Cancels it at the provider; the provider's status after. */
  cancel(c: Pick<ChargeForAdapter, 'txid' | 'tipo'>): Promise<string>;
}

// -------------------------------------------------------------------------------------------
// Pix

/** The CobSolicitada of a charge (API Pix `PUT /cob/{txid}`). */
export function cobSolicitada(c: ChargeForAdapter, expiracao: number): Record<string, unknown> {
  const texto = (c.descricao ?? '').trim();
  return {
    calendario: { expiracao },
    valor: { original: centavosParaDecimal(Number(c.valor_centavos)) },
    chave: c.chave_pix ?? '',
    ...(texto ? { solicitacaoPagador: [...texto].slice(0, 140).join('') } : {}),
  };
}

/** The CobVSolicitada of a charge whose payer's document is known (`PUT /cobv/{txid}`). */
export function cobVSolicitada(c: ChargeForAdapter): Record<string, unknown> {
  const doc = c.cliente_documento ?? '';
  const texto = (c.descricao ?? '').trim();
  return {
    calendario: { dataDeVencimento: c.vencimento, validadeAposVencimento: 0 },
    devedor: {
      ...(tipoDocumento(doc) === 'cnpj' ? { cnpj: doc } : { cpf: doc }),
      nome: [...c.cliente_nome].slice(0, 200).join(''),
    },
    valor: { original: centavosParaDecimal(Number(c.valor_centavos)) },
    chave: c.chave_pix ?? '',
    ...(texto ? { solicitacaoPagador: [...texto].slice(0, 140).join('') } : {}),
  };
}

/** The PSP's charge is ours: same txid (when given), amount and key. */
function sameCob(c: ChargeForAdapter, cob: CobGerada): boolean {
  return (
    (cob.txid === undefined || cob.txid === c.txid) &&
    cob.valor?.original === centavosParaDecimal(Number(c.valor_centavos)) &&
    (cob.chave === undefined || cob.chave === c.chave_pix)
  );
}

export function pixAdapter(client: PixClient): ChargeAdapter {
  const usesCobv = (c: ChargeForAdapter) =>
    c.tipo === 'cobv' || (c.tipo === null && c.cliente_documento !== null);
  return {
    nome: 'PSP',
    async register(c, ctx) {
      const cobv = usesCobv(c);
      let cob: CobGerada;
      try {
        cob = cobv
          ? await client.putCobv(c.txid, cobVSolicitada(c))
          : await client.putCob(c.txid, cobSolicitada(c, ctx.expiracaoS));
      } catch (e) {
        if (!(e instanceof PspError) || e.kind !== 'conflito') throw e;
        // Already at the PSP (our earlier try whose answer was lost): the same charge is accepted.
        const existing = await (cobv ? client.getCobv(c.txid) : client.getCob(c.txid));
        if (!sameCob(c, existing)) {
          throw new PspError(
            'recusado',
            'O PSP já tem uma cobrança com este txid e dados diferentes: verifique no PSP antes de reenviar.',
            409,
          );
        }
        cob = existing;
      }
      if (!cob.pixCopiaECola) {
        throw new PspError(
          'transitorio',
          'O PSP aceitou a cobrança sem o copia-e-cola; consultando de novo.',
        );
      }
      return {
        tipo: cobv ? 'cobv' : 'cob',
        location: cob.location ?? null,
        copia_e_cola: cob.pixCopiaECola,
        link: null,
        link_id: null,
        psp_status: cob.status ?? null,
      };
    },
    async consult(c) {
      const cob = await (usesCobv(c) ? client.getCobv(c.txid) : client.getCob(c.txid));
      if (cob.status === 'CONCLUIDA') {
        const pagos = (cob.pix ?? []).map((p) => decimalParaCentavos(p.valor ?? ''));
        const recebido = pagos.length
          ? pagos.reduce<number | null>((s, v) => (s === null || v === null ? null : s + v), 0)
          : decimalParaCentavos(cob.valor?.original ?? '');
        return { situacao: 'paga', recebido_centavos: recebido, detalhes: { pix: cob.pix ?? [] } };
      }
      if (cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || cob.status === 'REMOVIDA_PELO_PSP') {
        return { situacao: 'removida', psp_status: cob.status };
      }
      return { situacao: 'aberta', psp_status: cob.status ?? null };
    },
    async cancel(c) {
      const body = { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' };
      const cob = await (c.tipo === 'cobv'
        ? client.patchCobv(c.txid, body)
        : client.patchCob(c.txid, body));
      return cob.status ?? 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
    },
  };
}

// -------------------------------------------------------------------------------------------
// Card and boleto: the payment-link service

/** The body of `PUT /links/{id}` for a charge (see docs/payment-links.md). */
export function linkSolicitado(c: ChargeForAdapter): LinkSolicitado {
  return {
    valor_centavos: Number(c.valor_centavos),
    forma_pagamento: c.metodo === 'boleto' ? 'boleto' : 'cartao',
    parcelas: c.parcelas,
    vencimento: c.vencimento,
    descricao: c.descricao,
    cliente_nome: c.cliente_nome,
    cliente_documento: c.cliente_documento,
  };
}

export function linkAdapter(client: LinkClient): ChargeAdapter {
  return {
    nome: 'serviço de links',
    async register(c) {
      if (c.metodo === 'boleto' && !c.cliente_documento) {
        throw new PspError(
          'recusado',
          'Boleto sem o CPF/CNPJ do cliente: o boleto registrado exige o documento de quem paga.',
        );
      }
      const l = await client.put(c.txid, linkSolicitado(c));
      return {
        tipo: 'link',
        location: null,
        copia_e_cola: null,
        link: l.url,
        link_id: l.id,
        psp_status: l.estado,
      };
    },
    async consult(c) {
      const l = await client.get(c.txid);
      if (l.estado === 'pago') {
        const recebido =
          typeof l.pago_centavos === 'number' && Number.isSafeInteger(l.pago_centavos)
            ? l.pago_centavos
            : null;
        return { situacao: 'paga', recebido_centavos: recebido, detalhes: { link_id: l.id } };
      }
      if (l.estado === 'cancelado') return { situacao: 'removida', psp_status: l.estado };
      return { situacao: 'aberta', psp_status: l.estado };
    },
    async cancel(c) {
      return (await client.cancel(c.txid)).estado;
    },
  };
}
