/** Rows of the full benchmark (kept apart so the CLI's help needs no benchmark code). */
export const BENCH_FULL_ROWS = 20_000_000;

/** The intake benchmark's database (recreated each run). */
export const BENCH_INTAKE_DB = 'balcao_bench_intake';

/** The charges' dispatch benchmark's database (recreated each run). */
export const BENCH_COBRANCAS_DB = 'balcao_bench_cobrancas';

/** The WhatsApp channel's benchmark database (recreated each run). */
export const BENCH_WHATSAPP_DB = 'balcao_bench_whatsapp';

/** The team-on-one-queue benchmark's database (recreated each run, #39.1). */
export const BENCH_FILA_DB = 'balcao_bench_fila';
