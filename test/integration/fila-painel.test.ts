/**
 * #39.2–3 — deadlines of the review queue and the team panel, on real PostgreSQL:
 *  - when a deadline starts (migration 1000): creation, a change of situation, a reopen starts a
 *    new one; claim, release and a supervisor's takeover do not;
 *  - the panel's figures on a crafted dataset at a fixed instant (the one clock), exact;
 *  - `balcao fila painel --json` gives the service's figures, and the pt-BR table; a person
 *    without the supervisor role is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src-main/people/admin';
import { claim, release } from '../../src-main/queue/lease';
import { listQueue } from '../../src-main/queue/list';
import { reopen, takeOver } from '../../src-main/queue/supervisor';
import { teamPanel, type TeamPanelOptions } from '../../src-main/queue/team-panel';
import type { TeamPanel } from '../../src-shared/contract/review-panel';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
const SENHA = 'senha-de-teste-123';
const SUPORTE = `fila_painel_${process.pid}_ana`;

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
});
afterAll(async () => {
  await db.admin.query(`DROP ROLE IF EXISTS ${SUPORTE}`).catch(() => undefined);
  await db.drop();
});

const situacaoDesde = async (id: number): Promise<Date> =>
  (
    await db.admin.query<{ d: Date }>('SELECT situacao_desde AS d FROM extracoes WHERE id = $1', [
      id,
    ])
  ).rows[0]!.d;
const dbNow = async (): Promise<Date> =>
  (await db.admin.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0]!.t;

describe('deadline start (situacao_desde)', () => {
  it('starts at creation, restarts on a change of situation, survives leases and takeover, restarts on reopen', async () => {
    const id = await insertExtraction(db.admin, { criadaEm: '2026-12-04T10:00:00Z' });
    expect((await situacaoDesde(id)).toISOString()).toBe('2026-12-04T10:00:00.000Z');

    // Claim, release, claim again and a supervisor's takeover: the same deadline.
    const a = await claim(db.app, { id, operador: 'Ana' });
    if (!a.claimed) throw new Error('claim');
    await release(db.app, { id, token: a.token, operador: 'Ana' });
    const b = await claim(db.app, { id, operador: 'Ana' });
    expect(b.claimed).toBe(true);
    await takeOver(db.app, { id, operador: 'Chefe' });
    await db.admin.query(
      `UPDATE extracoes SET dados_revisados = $2, atualizada_em = now() WHERE id = $1`,
      [id, JSON.stringify(dados())],
    );
    expect((await situacaoDesde(id)).toISOString()).toBe('2026-12-04T10:00:00.000Z');

    // A question to the merchant: a new situation, its deadline from when the question went out.
    await db.admin.query(
      `UPDATE extracoes SET aguardando_desde = '2026-12-04T11:00:00Z' WHERE id = $1`,
      [id],
    );
    expect((await situacaoDesde(id)).toISOString()).toBe('2026-12-04T11:00:00.000Z');
    // The answer came (the item back to falhou): a new deadline, from the change.
    let before = await dbNow();
    await db.admin.query(`UPDATE extracoes SET aguardando_desde = NULL WHERE id = $1`, [id]);
    const back = await situacaoDesde(id);
    expect(back.getTime()).toBeGreaterThanOrEqual(before.getTime());

    // Discarded, then reopened by a supervisor: a new deadline from the reopen.
    await db.admin.query(
      `UPDATE extracoes SET situacao_desde = '2026-12-01T00:00:00Z' WHERE id = $1`,
      [id],
    );
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste', resolvida_por = 'Ana',
              lease_operador = NULL, lease_token = NULL, lease_expira_em = NULL WHERE id = $1`,
      [id],
    );
    expect((await situacaoDesde(id)).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    before = await dbNow();
    await reopen(db.app, { id, operador: 'Chefe', motivo: 'engano' });
    expect((await situacaoDesde(id)).getTime()).toBeGreaterThanOrEqual(before.getTime());
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste' WHERE id = $1`,
      [id],
    );
  });
});

// The panel's instant: 2026-12-04 12:00 in São Paulo.
const AGORA = new Date('2026-12-04T15:00:00Z');
const at = (min: number) => new Date(AGORA.getTime() - min * 60_000).toISOString();
const OPTS: TeamPanelOptions = {
  agora: AGORA,
  timeZone: 'America/Sao_Paulo',
  prazos: { falhou: 30, incompleto: 120, aguardando: 1440 },
  alertaFalhasValidacaoPct: 5,
};

async function audit(operador: string, acao: string, id: number, iso: string) {
  await db.admin.query(
    `INSERT INTO auditoria (operador, acao, extracao_id, ocorrido_em) VALUES ($1, $2, $3, $4)`,
    [operador, acao, id, iso],
  );
}

describe('painel da equipe', () => {
  let expected: TeamPanel;
  beforeAll(async () => {
    // The deadline test's item is discarded and old: it only adds to its creation day (04/12).
    const incompleto = dados({ valor_centavos: null });
    // Open backlog.
    const A = await insertExtraction(db.admin, { status: 'falhou', criadaEm: at(10) }); // 20 of 30 min left
    await insertExtraction(db.admin, { status: 'falhou', criadaEm: at(25) }); // 5 min left: near
    await insertExtraction(db.admin, { status: 'falhou', criadaEm: at(120) }); // late
    const D = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: incompleto,
      criadaEm: at(300),
    });
    // D entered its situation 100 min ago: 20 of 120 min left (near).
    await db.admin.query(`UPDATE extracoes SET situacao_desde = $2 WHERE id = $1`, [D, at(100)]);
    await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: incompleto,
      criadaEm: at(30 * 60),
    }); // late (created yesterday in São Paulo)
    const F = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: incompleto,
      criadaEm: at(210),
    });
    await db.admin.query(`UPDATE extracoes SET aguardando_desde = $2 WHERE id = $1`, [F, at(180)]);
    const G = await insertExtraction(db.admin, {
      status: 'completo',
      alertas: [
        {
          codigo: 'valor_divergente',
          mensagem: 'O valor difere do texto.',
          valores_no_texto: [9000],
        },
      ],
      criadaEm: at(50),
    });
    // Closed: two created by the system, one by Ana, one discarded by Bruno.
    const H = await insertExtraction(db.admin, { status: 'completo', criadaEm: at(120) });
    const I = await insertExtraction(db.admin, { status: 'completo', criadaEm: at(180) });
    const J = await insertExtraction(db.admin, { status: 'completo', criadaEm: at(240) });
    const K = await insertExtraction(db.admin, { status: 'completo', criadaEm: at(360) });
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'resolvida', resolvida_por = 'sistema', resolvida_em = criada_em
        WHERE id IN ($1, $2)`,
      [H, I],
    );
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'resolvida', resolvida_por = 'ana', resolvida_em = $2 WHERE id = $1`,
      [J, at(296)],
    );
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste', resolvida_por = 'bruno'
        WHERE id = $1`,
      [K],
    );
    // Three days ago (failed, discarded) and eight days ago: only in the days / nowhere.
    const L = await insertExtraction(db.admin, {
      status: 'falhou',
      criadaEm: '2026-12-01T15:00:00Z',
    });
    await insertExtraction(db.admin, { status: 'completo', criadaEm: '2026-11-26T15:00:00Z' });
    await db.admin.query(
      `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste', resolvida_por = 'x'
        WHERE criada_em < '2026-12-02'`,
    );
    // Leases now: Bruno holds A, Carla holds G; an expired one of Ana's counts for nobody.
    await db.admin.query(
      `UPDATE extracoes SET lease_operador = v.op, lease_token = gen_random_uuid(), lease_expira_em = v.ate,
              lease_login = current_user
         FROM (VALUES ($1::bigint, 'bruno', $3::timestamptz), ($2::bigint, 'carla', $4::timestamptz),
                      ($5::bigint, 'ana', $6::timestamptz)) v(id, op, ate)
        WHERE extracoes.id = v.id`,
      [
        A,
        G,
        new Date(AGORA.getTime() + 5 * 60_000),
        new Date(AGORA.getTime() + 10 * 60_000),
        D,
        at(1),
      ],
    );
    // Today's work: Ana 240 s, 120 s, 600 s (median 240); Bruno 60 s; the system's charge and
    // Ana's of yesterday are not today's work of a person.
    await audit('ana', 'assumiu', J, '2026-12-04T10:00:00Z');
    await audit('ana', 'cobranca_criada', J, '2026-12-04T10:04:00Z');
    await audit('ana', 'assumiu', D, '2026-12-04T11:00:00Z');
    await audit('ana', 'pergunta_ao_lojista', D, '2026-12-04T11:02:00Z');
    await audit('ana', 'assumiu', L, '2026-12-04T12:00:00Z');
    await audit('ana', 'liberou', L, '2026-12-04T12:05:00Z');
    await audit('ana', 'descartada', L, '2026-12-04T12:10:00Z');
    await audit('bruno', 'assumiu', K, '2026-12-04T13:00:00Z');
    await audit('bruno', 'descartada', K, '2026-12-04T13:01:00Z');
    await audit('sistema', 'cobranca_criada', H, '2026-12-04T13:00:00Z');
    await audit('ana', 'cobranca_criada', I, '2026-12-03T20:00:00Z');
    // After the panel's instant: not counted.
    await audit('bruno', 'descartada', K, '2026-12-04T15:30:00Z');

    const zeros = { ate_1h: 0, de_1h_a_4h: 0, de_4h_a_24h: 0, mais_de_24h: 0 };
    const day = (dia: string, extracoes = 0, automaticas = 0, falhou = 0, tratados = 0) => ({
      dia,
      extracoes,
      automaticas,
      falhou,
      tratados,
    });
    expected = {
      gerado_em: '2026-12-04T15:00:00.000Z',
      time_zone: 'America/Sao_Paulo',
      prazos_min: { falhou: 30, incompleto: 120, aguardando: 1440 },
      backlog: {
        total: 7,
        por_situacao: [
          { situacao: 'aguardando_lojista', total: 1, ...zeros, de_1h_a_4h: 1 },
          { situacao: 'com_alerta', total: 1, ...zeros, ate_1h: 1 },
          { situacao: 'falhou', total: 3, ...zeros, ate_1h: 2, de_1h_a_4h: 1 },
          { situacao: 'incompleto', total: 2, ...zeros, de_4h_a_24h: 1, mais_de_24h: 1 },
        ],
      },
      prazos: { atrasados: 2, vencendo: 2 },
      agentes: [
        { operador: 'ana', tratados_hoje: 3, mediana_tratamento_s: 240, reserva: null },
        {
          operador: 'bruno',
          tratados_hoje: 1,
          mediana_tratamento_s: 60,
          reserva: { pedido: A, expira_em: '2026-12-04T15:05:00.000Z' },
        },
        {
          operador: 'carla',
          tratados_hoje: 0,
          mediana_tratamento_s: null,
          reserva: { pedido: G, expira_em: '2026-12-04T15:10:00.000Z' },
        },
      ],
      // Last 24 h: A, B, C, D, F, G, H, I, J, K (E is 30 h old) plus the deadline test's item
      // (created 04/12 10:00 UTC, falhou): 11 extractions, 4 failed, 2 by the system.
      criacao_automatica: { extracoes: 11, automaticas: 2, taxa: 2 / 11 },
      falhas_validacao: { extracoes: 11, falhou: 4, taxa: 4 / 11, limite: 0.05, alerta: true },
      dias: [
        day('2026-11-28'),
        day('2026-11-29'),
        day('2026-11-30'),
        day('2026-12-01', 1, 0, 1, 0),
        day('2026-12-02'),
        day('2026-12-03', 1, 0, 0, 1),
        day('2026-12-04', 11, 2, 4, 4),
      ],
    };
  });

  it('gives the hand-computed figures at a fixed instant', async () => {
    expect(await teamPanel(db.app, OPTS)).toEqual(expected);
  });

  it('the deadlines follow the settings', async () => {
    // falhou 10 min: A (10 min old) is late too, B and C stay late; incompleto 6 h: D and E...
    const p = await teamPanel(db.app, {
      ...OPTS,
      prazos: { falhou: 10, incompleto: 360, aguardando: 60 },
    });
    // Late: A, B, C (falhou > 10 min), E (30 h), F (3 h waiting > 1 h). Near: D (100 of 360 min
    // used: no), G (50 of 360: no) → none.
    expect(p.prazos).toEqual({ atrasados: 5, vencendo: 0 });
  });

  it('balcao fila painel --json gives the service figures; the table is pt-BR; a suporte is refused', async () => {
    const env = cliEnv(db, { BALCAO_TIME_ZONE: 'America/Sao_Paulo' });
    const r = await runCli(['fila', 'painel', '--json'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as TeamPanel;
    const again = await teamPanel(db.app, { ...OPTS, agora: new Date(out.gerado_em) });
    expect(out).toEqual(again);
    expect(out.backlog.total).toBe(7);

    const t = await runCli(['fila', 'painel'], env);
    expect(t.code).toBe(0);
    expect(t.out).toContain('Painel da equipe');
    expect(t.out).toMatch(/Fila aberta: 7 pedidos/);
    expect(t.out).toMatch(/Falhou\s+3/);
    expect(t.out).toMatch(/Falhas de validação \(24 h\): [\d,]+% de \d+ extrações \(limite 5%\)/);
    expect(t.out).toContain('Últimos 7 dias:');

    const person = cliEnv(db, {
      APP_DATABASE_URL: db.appUrl.replace(/\/\/[^@]*@/, `//${SUPORTE}:${SENHA}@`),
    });
    const refused = await runCli(['fila', 'painel', '--json'], person);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toEqual({ erro: 'Só um supervisor pode fazer isso.' });
  });
});

describe("the queue list carries each open item's deadline", () => {
  it("from the situation's minutes and the moment it entered it; none for closed items", async () => {
    const prazos = { falhou: 30, incompleto: 120, aguardando: 1440 };
    const page = await listQueue(db.app, { limit: 200 }, prazos);
    const open = page.items.filter((i) => i.situacao === 'incompleto');
    expect(open.length).toBe(2);
    for (const i of page.items) {
      const min = i.situacao === 'falhou' ? 30 : i.situacao === 'aguardando_lojista' ? 1440 : 120;
      expect(Date.parse(i.prazo!.ate) - Date.parse(i.prazo!.desde)).toBe(min * 60_000);
    }
    const waiting = page.items.find((i) => i.situacao === 'aguardando_lojista')!;
    expect(waiting.prazo).toEqual({
      desde: at(180),
      ate: new Date(Date.parse(at(180)) + 1440 * 60_000).toISOString(),
    });
    const closed = await listQueue(db.app, { view: 'descartada', limit: 200 }, prazos);
    expect(closed.items.length).toBeGreaterThan(0);
    expect(closed.items.every((i) => i.prazo === null)).toBe(true);
  });
});
