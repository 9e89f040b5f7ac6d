import type { AnalyticsInfo, AppInfo } from '@shared/contract/app';
import { formatAtraso } from '@shared/freshness';
import { localDate } from '@shared/time';
import type { ServiceDeps } from '../deps';

/** What the status bar shows: version, database mode and health, zone, today, operator. */
export async function appInfo(deps: ServiceDeps): Promise<AppInfo> {
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
    analytics: await analyticsInfo(deps),
  };
}

/** The analytics endpoint's state for the status bar (only when it is a separate endpoint). */
async function analyticsInfo(deps: ServiceDeps): Promise<AnalyticsInfo | null> {
  const pool = deps.dbs.appRead;
  if (!pool) return null;
  const max = deps.settings.get().maxLagS;
  try {
    const r = await pool.query<{ em_recuperacao: boolean; atraso_s: number | null }>({
      text: 'SELECT em_recuperacao, atraso_s FROM balcao_frescor()',
      query_timeout: 3_000,
    } as { text: string });
    const row = r.rows[0];
    if (!row?.em_recuperacao) {
      return {
        ok: true,
        replica: false,
        atraso_s: 0,
        desatualizado: false,
        texto: 'Análise: primário',
      };
    }
    const atraso = row.atraso_s === null ? null : Math.round(Number(row.atraso_s) * 10) / 10;
    const desatualizado = atraso === null || atraso > max;
    return {
      ok: true,
      replica: true,
      atraso_s: atraso,
      desatualizado,
      texto:
        atraso === null
          ? 'Réplica: atraso desconhecido'
          : atraso < 1
            ? 'Réplica: em dia'
            : `Réplica: ${formatAtraso(atraso)} atrás`,
    };
  } catch {
    return {
      ok: false,
      replica: true,
      atraso_s: null,
      desatualizado: true,
      texto: 'Réplica: sem resposta',
    };
  }
}
