import { localDate } from '@shared/time';
import type { ServiceDeps } from '../../deps';
import type { PartialHandlers } from '../types';

export function appHandlers(deps: ServiceDeps): PartialHandlers<'app/info'> {
  return {
    'app/info': async () => {
      const s = deps.settings.get();
      const ok = await deps.dbs.app
        .query('SELECT 1')
        .then(() => true)
        .catch(() => false);
      return {
        version: deps.appVersion,
        database: deps.databaseMode,
        databaseOk: ok,
        timeZone: s.timeZone,
        today: localDate(deps.clock.now(), s.timeZone),
        operator: s.operator,
      };
    },
  };
}
