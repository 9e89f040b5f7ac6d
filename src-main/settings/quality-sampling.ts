import { AppError } from '@shared/errors';

/** Quality sampling's share and its 100% start per (model, prompt version) (#39.4). */
export interface QualitySampling {
  /** Percent of charges sampled after the start, 0–100 with up to two decimals. */
  percentual: number;
  /** The first N charges of each (model, prompt version) are all sampled. */
  inicial: number;
}

export const DEFAULT_QUALITY_SAMPLING: QualitySampling = { percentual: 5, inicial: 50 };

/**
 * BALCAO_AMOSTRA_QUALIDADE (percent: "5", "2,5", "0.5%") and BALCAO_AMOSTRA_QUALIDADE_INICIAL
 * (whole number); unset or empty → the defaults, anything else that is not valid → a pt-BR
 * `configuracao` error naming the variable.
 */
export function qualitySamplingFromEnv(env: NodeJS.ProcessEnv): QualitySampling {
  return {
    percentual: parsePercent(env.BALCAO_AMOSTRA_QUALIDADE),
    inicial: parseInitial(env.BALCAO_AMOSTRA_QUALIDADE_INICIAL),
  };
}

function parsePercent(raw: string | undefined): number {
  const t = raw?.trim();
  if (!t) return DEFAULT_QUALITY_SAMPLING.percentual;
  const m = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%?$/.exec(t);
  const n = m ? Number(`${m[1]}.${m[2] ?? '0'}`) : NaN;
  if (!m || n > 100) {
    throw new AppError(
      'configuracao',
      `BALCAO_AMOSTRA_QUALIDADE inválida ("${t.slice(0, 20)}"): use um percentual de 0 a 100, com até duas casas decimais (por exemplo 5 ou 2,5).`,
    );
  }
  return n;
}

function parseInitial(raw: string | undefined): number {
  const t = raw?.trim();
  if (!t) return DEFAULT_QUALITY_SAMPLING.inicial;
  const n = /^\d{1,7}$/.test(t) ? Number(t) : NaN;
  if (!Number.isInteger(n) || n > 1_000_000) {
    throw new AppError(
      'configuracao',
      `BALCAO_AMOSTRA_QUALIDADE_INICIAL inválida ("${t.slice(0, 20)}"): use um número inteiro de 0 a 1000000.`,
    );
  }
  return n;
}
