/**
 * Review queue at scale: a page of 50 open items (keyset, newest first), first page and a page
 * from the middle of the queue, timed through the queue's own `listQueue` (page + per-status
 * counts, as the UI asks) and the keyset page statement alone; and the same for the screens'
 * default order, the nearest deadline first (#39.2, migration 1070), also for one merchant.
 */
import type pg from 'pg';
import { encodeCursor } from '../queue/cursor';
import { addDays, localDate } from '@shared/time';
import { listQueue } from '../queue/list';
import { failureReport } from '../queue/report';
import { DEFAULT_DEADLINE_MINUTES, ITEM_COLS } from '../queue/rows';

export interface QueueResult {
  extracoes: number;
  abertas: number;
  pagina: number;
  /** listQueue (page and counts), first page. */
  lista_p50_ms: number;
  lista_p95_ms: number;
  /** listQueue, a page from the middle of the open items (cursor). */
  lista_meio_p50_ms: number;
  lista_meio_p95_ms: number;
  /** listQueue in the default order (nearest deadline first, #39.2), first page. */
  prazo_p50_ms: number;
  prazo_p95_ms: number;
  /** The same order, a page from the middle of the open items (cursor). */
  prazo_meio_p50_ms: number;
  prazo_meio_p95_ms: number;
  /** The same order, first page of the merchant with the most open items (Lojista filter). */
  prazo_lojista_p50_ms: number;
  prazo_lojista_p95_ms: number;
  /** The keyset page statement alone, middle of the queue. */
  pagina_sql_p50_ms: number;
  pagina_sql_p95_ms: number;
  /** Per-status counts of the open queue from the maintained counters (0740) alone. */
  contagens_p50_ms: number;
  contagens_p95_ms: number;
  /** The same counts by counting the rows (the path before 0740; filters it does not cover). */
  contagem_linhas_p50_ms: number;
  contagem_linhas_p95_ms: number;
  /** Counters == count(*) per status, in one snapshot. */
  contagens_iguais: boolean;
  /** "Falhas de validação" over the last 30 local days (all merchants), as the report screen asks. */
  relatorio_30d_p50_ms: number;
  relatorio_30d_p95_ms: number;
}

const PAGE = 50;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round((s[i] ?? 0) * 100) / 100;
}

async function timed(reps: number, fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function measureQueue(
  app: pg.Pool,
  reps: number,
  timeZone = 'America/Sao_Paulo',
): Promise<QueueResult> {
  const n = await app.query<{ total: number; abertas: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE fila_estado = 'aberta')::int AS abertas
       FROM extracoes`,
  );
  const total = n.rows[0]?.total ?? 0;
  const abertas = n.rows[0]?.abertas ?? 0;
  const mid = await app.query<{ k: string; id: number }>(
    `SELECT criada_em::text AS k, id FROM extracoes WHERE fila_estado = 'aberta'
      ORDER BY criada_em DESC, id DESC OFFSET $1 LIMIT 1`,
    [Math.floor(abertas / 2)],
  );
  const m = mid.rows[0];
  const cursor = m ? encodeCursor('recentes', [m.k, m.id]) : null;
  const reps2 = Math.max(reps, 20);
  const lista = await timed(reps2, () => listQueue(app, { limit: PAGE }));
  const meio = await timed(reps2, () => listQueue(app, { limit: PAGE, cursor }));
  // The default order of the screens and `fila listar`: the settings' minutes, as the app runs.
  const prazos = DEFAULT_DEADLINE_MINUTES;
  const prazo = await timed(reps2, () => listQueue(app, { limit: PAGE, sort: 'prazo' }, prazos));
  // Its middle: follow the cursor halfway (pages of 200, the largest the contract allows).
  let prazoCursor: string | null = null;
  for (let seen = 0; seen < abertas / 2; seen += 200) {
    const pg200 = await listQueue(app, { limit: 200, sort: 'prazo', cursor: prazoCursor }, prazos);
    if (!pg200.nextCursor) break;
    prazoCursor = pg200.nextCursor;
  }
  const prazoMeio = await timed(reps2, () =>
    listQueue(app, { limit: PAGE, sort: 'prazo', cursor: prazoCursor }, prazos),
  );
  const maior = await app.query<{ id: number }>(
    `SELECT merchant_id::int AS id FROM extracoes WHERE fila_estado = 'aberta'
      GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  );
  const lojista = maior.rows[0]?.id ?? 1;
  const prazoLojista = await timed(reps2, () =>
    listQueue(app, { limit: PAGE, sort: 'prazo', merchantId: lojista }, prazos),
  );
  const sql = await timed(reps2, () =>
    app.query({
      text: `SELECT ${ITEM_COLS} FROM extracoes e JOIN merchants m ON m.id = e.merchant_id
              WHERE e.fila_estado = $1 AND (e.criada_em, e.id) < ($2::timestamptz, $3::bigint)
              ORDER BY e.criada_em DESC, e.id DESC LIMIT $4`,
      values: ['aberta', m?.k ?? 'infinity', m?.id ?? 0, PAGE + 1],
    }),
  );
  const contagens = await timed(reps2, () =>
    app.query("SELECT status, n FROM balcao_fila_contagens('aberta', 0)"),
  );
  const linhas = await timed(reps2, () =>
    app.query(
      "SELECT status, count(*)::int AS n FROM extracoes e WHERE e.fila_estado = 'aberta' GROUP BY 1",
    ),
  );
  const eq = await app.query<{ iguais: boolean }>(
    `SELECT coalesce((SELECT jsonb_object_agg(status, n) FROM balcao_fila_contagens('aberta', 0) WHERE n <> 0), '{}')
          = coalesce((SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM extracoes
                       WHERE fila_estado = 'aberta' GROUP BY 1) x), '{}') AS iguais`,
  );
  const today = localDate(new Date(), timeZone);
  const relatorio = await timed(reps2, () =>
    failureReport(app, { de: addDays(today, -29), ate: today }, timeZone),
  );
  return {
    extracoes: total,
    abertas,
    pagina: PAGE,
    lista_p50_ms: pct(lista, 50),
    lista_p95_ms: pct(lista, 95),
    lista_meio_p50_ms: pct(meio, 50),
    lista_meio_p95_ms: pct(meio, 95),
    prazo_p50_ms: pct(prazo, 50),
    prazo_p95_ms: pct(prazo, 95),
    prazo_meio_p50_ms: pct(prazoMeio, 50),
    prazo_meio_p95_ms: pct(prazoMeio, 95),
    prazo_lojista_p50_ms: pct(prazoLojista, 50),
    prazo_lojista_p95_ms: pct(prazoLojista, 95),
    pagina_sql_p50_ms: pct(sql, 50),
    pagina_sql_p95_ms: pct(sql, 95),
    contagens_p50_ms: pct(contagens, 50),
    contagens_p95_ms: pct(contagens, 95),
    contagem_linhas_p50_ms: pct(linhas, 50),
    contagem_linhas_p95_ms: pct(linhas, 95),
    contagens_iguais: eq.rows[0]?.iguais === true,
    relatorio_30d_p50_ms: pct(relatorio, 50),
    relatorio_30d_p95_ms: pct(relatorio, 95),
  };
}
