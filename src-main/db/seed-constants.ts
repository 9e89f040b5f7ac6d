/** Demo data defaults (kept apart so the CLI's help needs no database code). */
export const DEFAULT_SEED_MERCHANTS = 12;
export const DEFAULT_SEED_TRANSACTIONS = 120_000;
