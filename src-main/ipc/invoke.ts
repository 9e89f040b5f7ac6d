import { contract, type Channel, type ChannelResult, type IpcResult } from '@shared/contract';
import { AppError, isAppError } from '@shared/errors';
import { findInvalidText, MSG_INVALID_CHARS } from '@shared/text';
import { issuesByField } from '@shared/validation';
import { z } from '@shared/zod';
import { causeForLog } from '../util/log-cause';
import type { AccessGate } from '../people/session';
import type { Logger } from '../util/logger';
import { redactDeep } from '../util/redact';
import { forPeople } from './people-words';
import type { CallContext, Handlers } from './types';

/**
 * The one path every call takes, in Electron and in the test bridge: the channel must be in the
 * contract, the person must be allowed to call it (the channel's permission in the contract,
 * `CHANNEL_ACCESS`, against the signed-in person's roles), the input is parsed with its zod
 * schema, the plain handler runs, and any failure becomes `{ code, message }` in pt-BR (never a
 * stack, SQL or SDK text). Without a gate (tests of plain services) every channel is allowed.
 */
export async function invokeChannel(
  handlers: Handlers,
  channel: string,
  rawInput: unknown,
  ctx: CallContext,
  logger?: Logger,
  gate?: AccessGate,
): Promise<IpcResult<unknown>> {
  if (!Object.hasOwn(contract, channel)) {
    return { ok: false, error: { code: 'entrada_invalida', message: 'Canal desconhecido.' } };
  }
  const ch = channel as Channel;
  const refused = gate?.check(ch);
  if (refused) return { ok: false, error: refused.toJSON() };
  // No text the database cannot store (NUL) or that is not valid Unicode (a lone surrogate)
  // gets past the boundary, whatever field it is in.
  const invalid = findInvalidText(rawInput);
  if (invalid) {
    const campo = invalid.join('.');
    return {
      ok: false,
      error: {
        code: 'entrada_invalida',
        message: MSG_INVALID_CHARS,
        ...(campo ? { fields: { [campo]: [MSG_INVALID_CHARS] } } : {}),
      },
    };
  }
  const parsed = contract[ch].input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const fields = issuesByField(parsed.error);
    const first = parsed.error.issues[0]?.message ?? 'Dados inválidos.';
    return {
      ok: false,
      error: redactDeep({ code: 'entrada_invalida' as const, message: first, fields }),
    };
  }
  try {
    // Sales read on the shared analytics login: the person's membership is asked of the database
    // right before (a role revoked mid-session stops here, not after the read).
    const late = await gate?.verify?.(ch);
    if (late) return { ok: false, error: late.toJSON() };
    const handler = handlers[ch] as (
      input: unknown,
      ctx: CallContext,
    ) => Promise<ChannelResult<Channel>>;
    const data = await handler(parsed.data, ctx);
    // Secrets never leave the main process: every result and error is redacted on the way out.
    return { ok: true, data: redactDeep(data) };
  } catch (e) {
    const cutOff = await gate?.afterFailure?.(e).catch(() => null);
    return { ok: false, error: redactDeep(toErrorShape(cutOff ?? e, channel, logger)) };
  }
}

export function toErrorShape(e: unknown, channel: string, logger?: Logger) {
  if (isAppError(e)) {
    // "Erro inesperado" always writes the full error (code, message, stack) to the log.
    if (e.code === 'interno')
      logger?.error({ err: e, channel, causa: causeForLog(e) }, 'erro interno');
    // Written for whoever runs the CLI or installs the app; people read what they can do (#42.6).
    const shape = e.toJSON();
    return { ...shape, message: forPeople(shape.message) };
  }
  if (e instanceof z.ZodError) {
    return {
      code: 'entrada_invalida' as const,
      message: e.issues[0]?.message ?? 'Dados inválidos.',
      fields: issuesByField(e),
    };
  }
  logger?.error({ err: e, channel, causa: causeForLog(e) }, 'erro inesperado no handler');
  return new AppError(
    'interno',
    'Erro inesperado. A equipe técnica pode ver os detalhes no log.',
  ).toJSON();
}
