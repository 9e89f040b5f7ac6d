/**
 * Benchmark: one sales query through each execution path, on whatever data DATABASE_URL holds
 * (e.g. after `npx balcao db seed-demo`).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/balcao npx tsx --tsconfig tsconfig.json \
 *     test/bench/sales-paths.ts [merchant=1] [repeticoes=25]
 *
 * Paths: the product executor (rollups when they serve the zone), the tenant view over
 * transacoes (analytics role), and the textbook query on the base table (owner role). Each
 * timing includes the transaction set-up of that path. Prints p50/p95 in ms per query shape.
 */
import { createPool } from '../../src-main/db/pool';
import { ANALYTICS_ROLE } from '../../src-main/db/roles';
import { urlForRole } from '../../src-main/db/urls';
import {
  executeSalesQuery,
  executeSalesQueryBaseTable,
  executeSalesQueryTenantView,
  type SalesExecutor,
} from '../../src-main/sales/execute';
import type { ConsultaVendas } from '@shared/sales-dsl';
import { addDays, localDate } from '@shared/time';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('defina DATABASE_URL');
const merchantId = Number(process.argv[2] ?? 1);
const reps = Number(process.argv[3] ?? 25);
const zone = 'America/Sao_Paulo';
const hoje = localDate(new Date(), zone);

const admin = createPool(url);
const analytics = createPool(process.env.ANALYTICS_DATABASE_URL ?? urlForRole(url, ANALYTICS_ROLE));
const base: ConsultaVendas = {
  metrica: 'total_bruto',
  agrupar_por: 'nenhum',
  periodo: null,
  data_inicio: addDays(hoje, -29),
  data_fim: hoje,
  modalidades: [],
  ordem: null,
  limite: null,
};
const ano = addDays(hoje, -365);
const shapes: [string, ConsultaVendas][] = [
  ['total, 30 dias', base],
  ['por dia, 366 dias', { ...base, agrupar_por: 'dia', data_inicio: ano }],
  [
    'por hora no pix, 366 dias',
    { ...base, agrupar_por: 'hora', modalidades: ['pix'], data_inicio: ano },
  ],
  [
    'ticket por mês, 366 dias',
    { ...base, metrica: 'ticket_medio', agrupar_por: 'mes', data_inicio: ano },
  ],
];
const paths: [string, SalesExecutor, typeof admin][] = [
  ['produto', executeSalesQuery, analytics],
  ['visão tenant', executeSalesQueryTenantView, analytics],
  ['base (textbook)', executeSalesQueryBaseTable, admin],
];
const ctx = { merchantId, timeZone: zone, timeoutMs: 30_000 };
try {
  for (const [name, q] of shapes) {
    for (const [path, run, pool] of paths) {
      await run(pool, q, ctx); // warm-up
      const t: number[] = [];
      for (let i = 0; i < reps; i++) {
        const t0 = performance.now();
        await run(pool, q, ctx);
        t.push(performance.now() - t0);
      }
      t.sort((a, b) => a - b);
      const p = (x: number) => t[Math.min(t.length - 1, Math.floor(x * t.length))]!.toFixed(1);
      console.log(`${name.padEnd(27)} ${path.padEnd(16)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms`);
    }
  }
} finally {
  await Promise.all([admin.end(), analytics.end()]);
}
