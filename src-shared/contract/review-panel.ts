/**
 * Painel da equipe (#39.3): the supervisor's view of the review queue — backlog by situation and
 * age, deadlines, each agent's day, the automatic-creation rate and the validation-failure alert,
 * with the last 7 days. One shape for the window (`review/teamPanel`) and
 * `balcao fila painel --json`, filled by one service function.
 */
import { z } from '../zod';

export const TeamPanelInput = z.object({}).strict();

/** Age bands of the open backlog (since the item was created). */
export const FAIXAS_IDADE = ['ate_1h', 'de_1h_a_4h', 'de_4h_a_24h', 'mais_de_24h'] as const;
export type FaixaIdade = (typeof FAIXAS_IDADE)[number];

export const FAIXA_IDADE_LABEL: Record<FaixaIdade, string> = {
  ate_1h: 'até 1 h',
  de_1h_a_4h: '1–4 h',
  de_4h_a_24h: '4–24 h',
  mais_de_24h: 'mais de 24 h',
};

export interface TeamPanelBacklogRow extends Record<FaixaIdade, number> {
  situacao: string;
  total: number;
}

export interface TeamPanelAgent {
  operador: string;
  /** Items the person closed or sent to the merchant today (charge created, discarded, asked). */
  tratados_hoje: number;
  /** Median seconds from taking the item to that action, today; null without any. */
  mediana_tratamento_s: number | null;
  /** The item the person holds now, if any. */
  reserva: { pedido: number; expira_em: string } | null;
}

export interface TeamPanelDay {
  /** AAAA-MM-DD in the business time zone. */
  dia: string;
  extracoes: number;
  automaticas: number;
  falhou: number;
  tratados: number;
}

export interface TeamPanel {
  gerado_em: string;
  time_zone: string;
  prazos_min: { falhou: number; incompleto: number; aguardando: number };
  backlog: { total: number; por_situacao: TeamPanelBacklogRow[] };
  /** Open items past their deadline, and open items with less than 25% of it left. */
  prazos: { atrasados: number; vencendo: number };
  agentes: TeamPanelAgent[];
  /** Extractions of the last 24 h whose charge the system created without a person. */
  criacao_automatica: { extracoes: number; automaticas: number; taxa: number };
  /** The same rate and threshold as `balcao fila status` (last 24 h). */
  falhas_validacao: {
    extracoes: number;
    falhou: number;
    taxa: number;
    limite: number;
    alerta: boolean;
  };
  /** The last 7 days, oldest first, today last. */
  dias: TeamPanelDay[];
}
