/** Login roles created by the foundation migration (cluster-wide names). */
export const APP_ROLE = 'balcao_app';
export const ANALYTICS_ROLE = 'balcao_analytics';

/** A person's role in Balcão (#18): the group role is `balcao_<papel>`. */
export const PAPEIS = ['suporte', 'financeiro', 'supervisor'] as const;
export type Papel = (typeof PAPEIS)[number];

/** Group roles of people (migration 0720), NOLOGIN; each person's login is a member of one. */
export const GROUP_ROLES: Record<Papel, string> = {
  suporte: 'balcao_suporte',
  financeiro: 'balcao_financeiro',
  supervisor: 'balcao_supervisor',
};
