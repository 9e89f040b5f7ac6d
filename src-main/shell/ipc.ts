import { CHANNELS, type IpcResult } from '@shared/contract';
import { AppError } from '@shared/errors';
import { invokeChannel, toErrorShape } from '../ipc/invoke';
import type { CallContext, Handlers } from '../ipc/types';
import type { AccessGate } from '../people/session';
import type { Logger } from '../util/logger';

/** The part of Electron's ipcMain we use: `handle` only (no `on`, no sendSync). */
export interface IpcMainLike<E> {
  handle(channel: string, listener: (event: E, input: unknown) => Promise<unknown>): void;
}

export interface IpcRegistration<E> {
  /** Resolves once the services are up (databases connected and migrated). */
  handlers: () => Promise<Handlers>;
  /** The caller's context, or null when the sender is not the main frame of our window. */
  contextFor: (event: E) => CallContext | null;
  /** Who may call what, once the services are up (absent: every channel). */
  gate?: () => AccessGate | undefined;
  logger?: Logger;
}

const REFUSED: IpcResult<never> = {
  ok: false,
  error: new AppError('acesso_negado', 'Chamada recusada: origem não reconhecida.').toJSON(),
};

/**
 * Registers every contract channel exactly once with `ipcMain.handle`. Each call: check the
 * sender, wait for the services, then the one wrapper (`invokeChannel`) the test bridge uses too.
 */
export function registerIpcHandlers<E>(ipcMain: IpcMainLike<E>, reg: IpcRegistration<E>): void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event: E, input: unknown) => {
      const ctx = reg.contextFor(event);
      if (!ctx) {
        reg.logger?.warn({ channel }, 'chamada IPC de origem não confiável recusada');
        return REFUSED;
      }
      let handlers: Handlers;
      try {
        handlers = await reg.handlers();
      } catch (e) {
        return { ok: false, error: toErrorShape(e, channel, reg.logger) };
      }
      return invokeChannel(handlers, channel, input, ctx, reg.logger, reg.gate?.());
    });
  }
}
