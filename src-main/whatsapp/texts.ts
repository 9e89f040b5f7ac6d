/** What Balcão says on WhatsApp by itself (pt-BR), and why a sending failed, for a person. */
import { TEXTO_MAX } from '../extraction';

export type TipoResposta = 'numero_desconhecido' | 'nao_texto' | 'texto_longo';

export const RESPOSTAS: Record<TipoResposta, string> = {
  numero_desconhecido:
    'Olá! Este número ainda não está cadastrado no Balcão, por isso não conseguimos atender por aqui. ' +
    'Peça ao seu gerente de conta para cadastrar este WhatsApp na sua loja e escreva de novo. Obrigado!',
  nao_texto:
    'Recebemos sua mensagem, mas por enquanto o Balcão entende só mensagens de texto (áudio, imagem, ' +
    'localização, figurinha e reação não são lidos). Escreva o pedido, por exemplo: ' +
    '"manda um pix de 80 reais pro Zé, vence sexta".',
  texto_longo: `Sua mensagem passou de ${TEXTO_MAX.toLocaleString('pt-BR')} caracteres e não foi lida. Mande o pedido em uma mensagem mais curta, por favor.`,
};

/** The error codes of the Cloud API that Balcão maps (Meta's numbers). */
export const ERRO = {
  TOKEN: 190,
  LIMITE_VAZAO: 130429,
  LIMITE_PAR: 131056,
  JANELA_FECHADA: 131047,
  NAO_ENTREGAVEL: 131026,
} as const;

/** Why a message will not be sent (or was not delivered), for the person who follows it up. */
export function motivoFalha(code: number | undefined, status?: number): string {
  switch (code) {
    case ERRO.JANELA_FECHADA:
      return 'A janela de 24 horas do WhatsApp fechou: o lojista não escreve há mais de 24 horas, e fora dela só um modelo aprovado pode ser enviado. Fale com o lojista por outro canal ou espere ele escrever.';
    case ERRO.NAO_ENTREGAVEL:
      return 'O WhatsApp não conseguiu entregar: o número pode não ter WhatsApp, não ter aceitado os termos atuais ou usar uma versão antiga do aplicativo. Confira o número do lojista.';
    case ERRO.TOKEN:
      return 'O token do WhatsApp (BALCAO_WHATSAPP_TOKEN) foi recusado pela Meta.';
    default:
      return code !== undefined
        ? `O WhatsApp recusou a mensagem (erro ${code}). Ela não será reenviada automaticamente.`
        : `O WhatsApp recusou a mensagem (HTTP ${status ?? '?'}). Ela não será reenviada automaticamente.`;
  }
}

/** A person-readable delivery failure from a status webhook's errors[]. */
export function motivoStatusFalhou(code: number | undefined): string {
  return code === undefined
    ? 'O WhatsApp informou que a mensagem não foi entregue.'
    : motivoFalha(code);
}
