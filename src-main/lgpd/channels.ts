import type { Channel } from '@shared/contract';
import type { DomainChannels } from '../channels';
import type { ServiceDeps } from '../deps';
import { revealField } from './reveal';
import { anonymiseSubject, exportSubject } from './subject';

export type LgpdChannel = Extract<Channel, `lgpd/${string}`>;

/**
 * The LGPD area's channels (#38.2, #38.4), supervisor-only by the contract's permissions (and by
 * the database's own check). The audit records the session's login; `operator` is its label.
 */
export function lgpdChannels(deps: ServiceDeps): DomainChannels<LgpdChannel> {
  const operador = () => deps.settings.get().operator;
  return {
    'lgpd/exportar': (input) =>
      exportSubject(deps.dbs.app, input, { operador: operador(), clock: deps.clock }),
    'lgpd/anonimizar': ({ confirmado: _, ...titular }) =>
      anonymiseSubject(deps.dbs.app, titular, { operador: operador() }),
    'lgpd/revelar': (input) => revealField(deps.dbs.app, input, operador()),
  };
}
