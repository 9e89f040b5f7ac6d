import type { Channel } from '@shared/contract';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { cancel, resend } from './admin';
import type { DispatchDeps } from './dispatch';
import { dispatchHistory, listFailures, motivoParaPessoas } from './screens';
import { pspSettingsView } from './stored-config';

export type PixChannel = Extract<Channel, `pix/${string}`>;

/** How long a person's send or cancel holds a charge against the workers (ms). */
const LEASE_MS = 30_000;

/** The dispatch's dependencies for a person's call (send again, cancel) from the screens. */
export function dispatchDepsOf(deps: ServiceDeps): DispatchDeps {
  return {
    pool: deps.dbs.app,
    client: deps.psp?.client ?? null,
    links: deps.psp?.links ?? null,
    clock: deps.clock,
    zone: deps.settings.get().timeZone,
    leaseMs: LEASE_MS,
    logger: deps.logger,
  };
}

/**
 * A charge's dispatch on the screens (#36.7): status of the PSP (configured or not — nothing
 * more), the "Falhas no PSP" view, a charge's steps, send again and cancel (audited with the
 * `operator` setting at call time, as the queue's actions are).
 */
export function pixChannels(deps: ServiceDeps): DomainChannels<PixChannel> {
  const dispatch = () => dispatchDepsOf(deps);
  const operador = () => deps.settings.get().operator;
  const estado = async (cobrancaId: number) => {
    const h = await dispatchHistory(deps.dbs.app, cobrancaId);
    return { estado: h?.estado ?? 'pendente', motivo: h?.motivo ?? null };
  };
  return {
    // Configured in this process's environment or in Configurações (#36.6: the URL stored there
    // is what serve and worker use when they start).
    'pix/status': async () => ({
      pspConfigurado:
        Boolean(deps.psp?.client) || (await pspSettingsView(deps.dbs.app)).url !== null,
    }),
    'pix/failures': async ({ limit }) => ({ items: await listFailures(deps.dbs.app, limit) }),
    'pix/history': ({ cobrancaId }) => dispatchHistory(deps.dbs.app, cobrancaId),
    'pix/resend': async ({ cobrancaId }) => {
      await resend(dispatch(), cobrancaId, operador());
      return estado(cobrancaId);
    },
    'pix/cancel': async ({ cobrancaId }) => {
      const r = await cancel(dispatch(), cobrancaId, operador());
      return { estado: r.estado, motivo: motivoParaPessoas(r.motivo) };
    },
  };
}
