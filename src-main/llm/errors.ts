import Anthropic from '@anthropic-ai/sdk';
import { AppError } from '@shared/errors';

/**
 * Maps an SDK error (after the SDK's own transport retries) to a pt-BR AppError. The API's
 * English message is never shown; only its status and error type, which say what to fix.
 */
export function mapAnthropicError(
  e: unknown,
  ctx: { model: string; timeoutMs?: number },
): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof Anthropic.APIUserAbortError) {
    return new AppError('cancelado', 'Operação cancelada.');
  }
  if (e instanceof Anthropic.APIConnectionTimeoutError) {
    const s = ctx.timeoutMs ? ` em ${(ctx.timeoutMs / 1000).toLocaleString('pt-BR')} s` : '';
    return new AppError(
      'tempo_esgotado',
      `O modelo não respondeu${s}, mesmo após novas tentativas. Tente de novo ou aumente o tempo limite (BALCAO_REQUEST_TIMEOUT_MS).`,
    );
  }
  if (e instanceof Anthropic.APIConnectionError) {
    return new AppError(
      'modelo_indisponivel',
      'Não foi possível conectar à API da Anthropic. Verifique a rede e ANTHROPIC_BASE_URL.',
    );
  }
  if (e instanceof Anthropic.APIError) {
    const status = e.status ?? 0;
    const type = apiErrorType(e.error);
    // Status and error type say what to fix, but only to whoever configures the app: agents
    // read these messages, so they appear only where the message is about configuration.
    const detail = type ? ` (${status}, ${type})` : ` (${status})`;
    if (status === 401) {
      return new AppError(
        'sem_chave_api',
        `A API da Anthropic recusou a chave. Confira ANTHROPIC_API_KEY ou a chave cadastrada nas Configurações.`,
      );
    }
    if (status === 403) {
      return new AppError(
        'configuracao',
        `A chave não tem permissão para usar o modelo ${ctx.model}${detail}.`,
      );
    }
    if (status === 404) {
      return new AppError(
        'configuracao',
        `Modelo ${ctx.model} não encontrado na API${detail}. Confira ANTHROPIC_MODEL nas configurações.`,
      );
    }
    if (status === 429) {
      return new AppError(
        'modelo_indisponivel',
        `Limite de uso da API atingido, mesmo após novas tentativas. Aguarde alguns instantes e tente de novo.`,
      );
    }
    if (status >= 500) {
      return new AppError(
        'modelo_indisponivel',
        `A API da Anthropic está indisponível no momento. Tente de novo em instantes.`,
      );
    }
    return new AppError(
      'configuracao',
      `A API da Anthropic recusou a requisição${detail}. Confira o modelo (${ctx.model}) e as configurações.`,
    );
  }
  return new AppError('interno', 'Erro inesperado ao chamar o modelo.');
}

function apiErrorType(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const inner = (body as { error?: unknown }).error;
  const t =
    inner && typeof inner === 'object'
      ? (inner as { type?: unknown }).type
      : (body as { type?: unknown }).type;
  return typeof t === 'string' && /^[a-z_]{1,60}$/.test(t) ? t : undefined;
}
