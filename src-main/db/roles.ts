/** Login roles created by the foundation migration (cluster-wide names). */
export const APP_ROLE = 'balcao_app';
export const ANALYTICS_ROLE = 'balcao_analytics';
