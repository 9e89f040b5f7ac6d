import type { Papel } from '@shared/permissions';

/** Login roles created by the foundation migration (cluster-wide names). */
export const APP_ROLE = 'balcao_app';
export const ANALYTICS_ROLE = 'balcao_analytics';

/**
 * Group roles of people (migration 0720), NOLOGIN; each person's login is a member of one: a
 * person's role in Balcão (#18, `@shared/permissions`) is the group role `balcao_<papel>`.
 */
export const GROUP_ROLES: Record<Papel, string> = {
  suporte: 'balcao_suporte',
  financeiro: 'balcao_financeiro',
  supervisor: 'balcao_supervisor',
};
