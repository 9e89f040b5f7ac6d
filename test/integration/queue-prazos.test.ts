/**
 * #39.2 — the queue's default order, by deadline, on real PostgreSQL (migration 1070):
 *  - most urgent first (past-deadline items first, then the nearest deadline), keyset pages of
 *    every size with no repeat and no gap, ties across situations broken by id, rows stored
 *    before 1000 (no situacao_desde) in their place;
 *  - the marks at an instant of the one clock (a fixed clock): late, near, none;
 *  - a takeover keeps an item's deadline and place; a reopen starts a new deadline;
 *  - other minutes (settings) reorder the same rows exactly, with no write;
 *  - the Lojista and situation filters, and closed views (no deadline: oldest first);
 *  - `balcao fila listar` in that order by default (--ordem), with the deadline and its mark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { claim } from '../../src-main/queue/lease';
import { listQueue } from '../../src-main/queue/list';
import type { DeadlineMinutes } from '../../src-main/queue/rows';
import { reopen, takeOver } from '../../src-main/queue/supervisor';
import type { QueueItem } from '../../src-shared/contract/review';
import { deadlineMark } from '../../src-shared/deadline';
import type { Alerta, Situacao } from '../../src-shared/extraction-types';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
const PRAZOS: DeadlineMinutes = { falhou: 30, incompleto: 120, aguardando: 1440 };
/** The instant of the test: the database's own time, rounded, so a reopen (now()) is after it. */
let AGORA: Date;
const ago = (min: number) => new Date(AGORA.getTime() - min * 60_000).toISOString();
const ALERTA: Alerta[] = [
  { codigo: 'valor_divergente', mensagem: 'O valor difere do texto.', valores_no_texto: [9000] },
];

/** The rows as the test made them: id, situation and deadline start. */
interface Made {
  id: number;
  situacao: Situacao;
  inicio: string;
  merchantId: number;
}
const made: Made[] = [];

async function make(
  situacao: Situacao,
  inicioMin: number,
  o: { merchantId?: number; semSituacaoDesde?: boolean } = {},
): Promise<number> {
  const merchantId = o.merchantId ?? 1;
  const inicio = ago(inicioMin);
  let id: number;
  if (situacao === 'aguardando_lojista') {
    id = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ valor_centavos: null }),
      criadaEm: ago(inicioMin + 60),
      merchantId,
    });
    await db.admin.query('UPDATE extracoes SET aguardando_desde = $2 WHERE id = $1', [id, inicio]);
  } else {
    id = await insertExtraction(db.admin, {
      status: situacao === 'com_alerta' ? 'completo' : situacao,
      ...(situacao === 'incompleto' ? { dados: dados({ valor_centavos: null }) } : {}),
      ...(situacao === 'com_alerta' ? { alertas: ALERTA } : {}),
      criadaEm: inicio,
      merchantId,
    });
  }
  // A row stored before migration 1000 has no situacao_desde: its start is aguardando_desde or
  // criada_em (the trigger leaves a NULL alone when the situation does not change).
  if (o.semSituacaoDesde)
    await db.admin.query('UPDATE extracoes SET situacao_desde = NULL WHERE id = $1', [id]);
  made.push({ id, situacao, inicio, merchantId });
  return id;
}

const minutesOf = (s: Situacao, m: DeadlineMinutes) =>
  s === 'falhou' ? m.falhou : s === 'aguardando_lojista' ? m.aguardando : m.incompleto;

/** The order by hand: (deadline, id) of the rows still open. */
function expectedOrder(rows: Made[], m: DeadlineMinutes): number[] {
  return rows
    .map((r) => ({ id: r.id, prazo: Date.parse(r.inicio) + minutesOf(r.situacao, m) * 60_000 }))
    .sort((a, b) => a.prazo - b.prazo || a.id - b.id)
    .map((r) => r.id);
}

/** Every page of a listing, following the cursor. */
async function allPages(
  input: Parameters<typeof listQueue>[1],
  m: DeadlineMinutes = PRAZOS,
): Promise<QueueItem[][]> {
  const pages: QueueItem[][] = [];
  let cursor: string | null = null;
  do {
    const page = await listQueue(db.app, { ...input, cursor }, m);
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 100);
  return pages;
}

const ids = (pages: QueueItem[][]) => pages.flat().map((i) => i.id);

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Loja do Zé' });
  const t = (await db.admin.query<{ t: Date }>('SELECT now() AS t')).rows[0]!.t;
  AGORA = new Date(Math.floor(t.getTime() / 60_000) * 60_000);
  // Deadlines (minutes from AGORA, with 30/120/1440):
  await make('falhou', 45); //                          −15  late
  await make('incompleto', 200); //                     −80  late, the most
  await make('aguardando_lojista', 1500); //            −60  late
  await make('falhou', 10); //                          +20
  await make('incompleto', 100); //                     +20  tie with the one above
  await make('com_alerta', 100, { merchantId: 2 }); //  +20  tie
  await make('falhou', 10, { merchantId: 2 }); //       +20  tie
  await make('completo', 5); //                         +115
  await make('falhou', 28); //                          +2   near
  await make('incompleto', 60, { semSituacaoDesde: true }); // +60 (criada_em)
  await make('aguardando_lojista', 30, { semSituacaoDesde: true }); // +1410 (aguardando_desde)
  await make('com_alerta', 0); //                       +120
  // Closed items are never in the open order.
  const closed = await insertExtraction(db.admin, { status: 'falhou', criadaEm: ago(500) });
  await db.admin.query(
    `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste', resolvida_por = 'Ana'
      WHERE id = $1`,
    [closed],
  );
});
afterAll(async () => {
  await db.drop();
});

describe('the deadline order (prazo)', () => {
  it('puts the most urgent first, the same rows on pages of any size, ties by id', async () => {
    const want = expectedOrder(made, PRAZOS);
    // The first three are the late ones, most late first.
    expect(want.slice(0, 3)).toEqual([made[1]!.id, made[2]!.id, made[0]!.id]);
    for (const limit of [1, 2, 3, 4, 5, 50]) {
      const pages = await allPages({ sort: 'prazo', limit });
      expect(ids(pages), `pages of ${limit}`).toEqual(want);
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
    // A page boundary inside the four-way tie (deadline +20): 5 late/near + split.
    const [p1, p2] = await allPages({ sort: 'prazo', limit: 6 });
    const tie = made.slice(3, 7).map((r) => r.id);
    const tieSorted = [...tie].sort((a, b) => a - b);
    expect([...p1!, ...p2!].map((i) => i.id).filter((id) => tie.includes(id))).toEqual(tieSorted);
    expect(p1!.map((i) => i.id).filter((id) => tie.includes(id)).length).toBeGreaterThan(0);
    expect(p2!.map((i) => i.id).filter((id) => tie.includes(id)).length).toBeGreaterThan(0);
  });

  it('each item carries its deadline; at a fixed instant the late ones are marked late, the near one near', async () => {
    const clock = fixedClock(AGORA);
    const [page] = await allPages({ sort: 'prazo', limit: 50 });
    const mark = (id: number) =>
      deadlineMark(page!.find((i) => i.id === id)!.prazo, clock.now().getTime());
    for (const r of made) {
      const item = page!.find((i) => i.id === r.id)!;
      expect(item.prazo).toEqual({
        desde: r.inicio,
        ate: new Date(Date.parse(r.inicio) + minutesOf(r.situacao, PRAZOS) * 60_000).toISOString(),
      });
    }
    expect(mark(made[0]!.id)).toEqual({ kind: 'atrasado', text: 'atrasado há 15 min' });
    expect(mark(made[1]!.id)).toEqual({ kind: 'atrasado', text: 'atrasado há 1 h' });
    expect(mark(made[2]!.id)).toEqual({ kind: 'atrasado', text: 'atrasado há 1 h' });
    expect(mark(made[8]!.id)).toEqual({ kind: 'vencendo', text: 'vence em 2 min' });
    expect(mark(made[3]!.id)).toBeNull();
    expect(mark(made[11]!.id)).toBeNull();
    // Marked items lead the order: every late one before every other.
    const order = page!.map((i) => deadlineMark(i.prazo, clock.now().getTime())?.kind ?? '');
    expect(order.slice(0, 3)).toEqual(['atrasado', 'atrasado', 'atrasado']);
    expect(order.slice(3)).not.toContain('atrasado');
  });

  it('other minutes reorder the same rows exactly, with nothing written', async () => {
    const other: DeadlineMinutes = { falhou: 600, incompleto: 15, aguardando: 60 };
    const before = await db.admin.query('SELECT id, xmin::text FROM extracoes ORDER BY id');
    for (const limit of [2, 7]) {
      expect(ids(await allPages({ sort: 'prazo', limit }, other))).toEqual(
        expectedOrder(made, other),
      );
    }
    expect(expectedOrder(made, other)).not.toEqual(expectedOrder(made, PRAZOS));
    expect((await db.admin.query('SELECT id, xmin::text FROM extracoes ORDER BY id')).rows).toEqual(
      before.rows,
    );
  });

  it('follows the Lojista and situation filters; closed views list oldest first', async () => {
    const zé = made.filter((r) => r.merchantId === 2);
    expect(ids(await allPages({ sort: 'prazo', limit: 1, merchantId: 2 }))).toEqual(
      expectedOrder(zé, PRAZOS),
    );
    const chosen: Situacao[] = ['falhou', 'aguardando_lojista'];
    expect(ids(await allPages({ sort: 'prazo', limit: 2, situacao: chosen }))).toEqual(
      expectedOrder(
        made.filter((r) => chosen.includes(r.situacao)),
        PRAZOS,
      ),
    );
    const closedByDeadline = await allPages({ view: 'descartada', sort: 'prazo', limit: 1 });
    const closedOldest = await allPages({ view: 'descartada', sort: 'antigas', limit: 1 });
    expect(ids(closedByDeadline)).toEqual(ids(closedOldest));
    expect(closedByDeadline.flat().every((i) => i.prazo === null)).toBe(true);
  });

  it('balcao fila listar: the deadline order by default, with the deadline and its mark', async () => {
    const env = cliEnv(db, { BALCAO_OPERATOR: 'Carla (terminal)' });
    const j = await runCli(['fila', 'listar', '--json', '--limite', '200'], env);
    expect(j.code).toBe(0);
    const pedidos = (
      JSON.parse(j.out) as {
        pedidos: { id: number; prazo: QueueItem['prazo']; prazo_marca: string | null }[];
      }
    ).pedidos;
    expect(pedidos.map((p) => p.id)).toEqual(expectedOrder(made, PRAZOS));
    expect(pedidos.slice(0, 3).map((p) => p.prazo_marca)).toEqual([
      'atrasado',
      'atrasado',
      'atrasado',
    ]);
    expect(pedidos.find((p) => p.id === made[3]!.id)).toMatchObject({
      prazo: {
        desde: made[3]!.inicio,
        ate: new Date(Date.parse(made[3]!.inicio) + 30 * 60_000).toISOString(),
      },
      prazo_marca: null,
    });
    const t = await runCli(['fila', 'listar'], env);
    expect(t.out).toMatch(/^Pedido\s+Situação\s+Idade\s+Lojista\s+Motivo\s+Com quem\s+Prazo/);
    const first = t.out.split('\n')[1]!;
    expect(first).toMatch(new RegExp(`^#${made[1]!.id}\\s.*atrasado há 1 h$`));
    const oldest = await runCli(['fila', 'listar', '--json', '--ordem', 'antigas'], env);
    const byAge = (JSON.parse(oldest.out) as { pedidos: { id: number }[] }).pedidos;
    expect(byAge[0]!.id).toBe(made[2]!.id); // created 1560 min ago
    const bad = await runCli(['fila', 'listar', '--ordem', 'urgencia'], env);
    expect(bad.code).not.toBe(0);
  });

  it('a cursor of another order is refused', async () => {
    const p = await listQueue(db.app, { sort: 'recentes', limit: 1 }, PRAZOS);
    await expect(
      listQueue(db.app, { sort: 'prazo', limit: 1, cursor: p.nextCursor }, PRAZOS),
    ).rejects.toMatchObject({ code: 'entrada_invalida' });
  });
});

describe('the deadline across takeover and reopen', () => {
  it('a claim and a takeover keep the deadline and the place; a reopen starts a new deadline', async () => {
    const late = made[0]!; // falhou, 15 min late
    const before = ids(await allPages({ sort: 'prazo', limit: 4 }));
    const a = await claim(db.app, { id: late.id, operador: 'Ana' });
    expect(a.claimed).toBe(true);
    await takeOver(db.app, { id: late.id, operador: 'Chefe' });
    const after = await allPages({ sort: 'prazo', limit: 4 });
    expect(ids(after)).toEqual(before);
    const item = after.flat().find((i) => i.id === late.id)!;
    expect(item.emAnalisePor).toBe('Chefe');
    expect(item.prazo).toEqual({
      desde: late.inicio,
      ate: new Date(Date.parse(late.inicio) + 30 * 60_000).toISOString(),
    });

    // Discarded, then reopened by a supervisor: the clock of its situation starts again.
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste', resolvida_por = 'Ana',
              lease_operador = NULL, lease_token = NULL, lease_expira_em = NULL WHERE id = $1`,
      [late.id],
    );
    expect(ids(await allPages({ sort: 'prazo', limit: 4 }))).not.toContain(late.id);
    const t0 = (await db.admin.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0]!.t;
    await reopen(db.app, { id: late.id, operador: 'Chefe', motivo: 'engano' });
    const reopened = ids(await allPages({ sort: 'prazo', limit: 4 }));
    const again = (await allPages({ sort: 'prazo', limit: 50 }))
      .flat()
      .find((i) => i.id === late.id)!;
    expect(Date.parse(again.prazo!.desde)).toBeGreaterThanOrEqual(t0.getTime());
    expect(Date.parse(again.prazo!.ate) - Date.parse(again.prazo!.desde)).toBe(30 * 60_000);
    expect(deadlineMark(again.prazo, AGORA.getTime())).toBeNull();
    // Its place: after everything due before now + 30 min, before what is due after it.
    const moved = made.map((r) => (r.id === late.id ? { ...r, inicio: again.prazo!.desde } : r));
    expect(reopened).toEqual(expectedOrder(moved, PRAZOS));
    expect(reopened.indexOf(late.id)).toBeGreaterThan(before.indexOf(late.id));
  });
});
