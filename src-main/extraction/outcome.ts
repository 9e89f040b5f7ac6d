import type {
  Alerta,
  DadosCobranca,
  ExtractionStatus,
  FilaEstado,
  RuleError,
  Uso,
} from '@shared/extraction-types';
import type { ToolAttempt } from '../llm/tool-loop';

export type ChargeAttempt = ToolAttempt<RuleError[]>;

/** What one extraction run produced (before/after storing). */
export interface ExtractionOutcome {
  status: ExtractionStatus;
  dados: DadosCobranca;
  erros: RuleError[];
  alertas: Alerta[];
  attempts: ChargeAttempt[];
  uso: Uso;
  custo_estimado_usd: number | null;
  modelo: string;
  hoje: string;
  duracao_ms: number;
  fila_estado: FilaEstado;
}

export interface ExtractionResult extends ExtractionOutcome {
  extracao_id: number | null;
  merchant_id: number;
  /** 1 for the first run; 2, 3… for follow-ups. */
  rodada: number;
}
