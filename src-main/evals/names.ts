/** Suite names for `balcao eval --suite` (the suites themselves load when the command runs). */
export const SUITE_NAMES = ['consultas', 'cobrancas', 'sql'] as const;
