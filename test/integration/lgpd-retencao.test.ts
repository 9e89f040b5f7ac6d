/**
 * #38.3 retention on real PostgreSQL: rows older than the bound lose their personal text (the
 * marker instead), newer rows, charges' money and the audit stay; a second pass touches
 * nothing; a pass whose connection is killed in the middle of a batch leaves every row either
 * as it was or fully anonymised, and the next pass finishes; `balcao lgpd retencao --simular`
 * counts per table and changes nothing.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARCADOR_RETENCAO } from '@shared/lgpd';
import { fixedClock } from '../../src-main/clock';
import { startBoss } from '../../src-main/intake/jobs';
import { startRetentionJob } from '../../src-main/lgpd/job';
import { silentLogger } from '../../src-main/util/logger';
import {
  retentionCutoff,
  retentionDays,
  runRetention,
  simulateRetention,
  totalOf,
} from '../../src-main/lgpd/retention';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { insertTrail, type Trail } from '../support/lgpd-fixtures';
import { ensureMerchants } from '../support/queue-fixtures';

const NOW = new Date('2026-11-30T15:00:00Z');
const CUTOFF = retentionCutoff(fixedClock(NOW), 180);

let db: TestDatabase;
let old: Trail;
let recent: Trail;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Mercadinho Sol' });
  old = await insertTrail(db.admin, {
    merchantId: 1,
    texto: 'link de R$ 150,00 pro João Silva, CPF 529.982.247-25, zap (11) 98765-4321',
    nome: 'João Silva',
    documento: '52998224725',
    diasAtras: 200,
    agora: NOW,
    valorCentavos: 15000,
  });
  recent = await insertTrail(db.admin, {
    merchantId: 2,
    texto: 'cobra 80 reais da Maria Souza, maria@exemplo.com.br',
    nome: 'Maria Souza',
    diasAtras: 10,
    agora: NOW,
    valorCentavos: 8000,
  });
  await db.admin.query(`INSERT INTO auditoria (operador, acao) VALUES ('teste', 'marco')`);
});
afterAll(() => db.drop());

const texts = async (t: Trail) => {
  const r = await db.admin.query<Record<string, unknown>>(
    `SELECT (SELECT texto FROM mensagens WHERE id = $1) AS mensagem,
            (SELECT texto FROM extracoes WHERE id = $2) AS extracao,
            (SELECT entrada FROM extracao_tentativas WHERE extracao_id = $2 AND numero = 1) AS tentativa,
            (SELECT entrada FROM intake_tentativas WHERE mensagem = $1 AND numero = 1) AS intake,
            (SELECT conteudo FROM intake_tentativas WHERE mensagem = $1 AND numero = 1) AS conteudo,
            (SELECT texto FROM mensagens_saida WHERE id = $3) AS saida,
            (SELECT pergunta FROM consultas_vendas WHERE id = $4) AS pergunta`,
    [t.mensagem, t.extracao, t.saida, t.pergunta],
  );
  return r.rows[0]!;
};
const money = async () =>
  (
    await db.admin.query(
      `SELECT id, valor_centavos, parcelas, metodo, vencimento, cliente_nome FROM cobrancas ORDER BY id`,
    )
  ).rows;
const auditCount = async () =>
  Number((await db.admin.query('SELECT count(*) AS n FROM auditoria')).rows[0].n);

describe('retention', () => {
  it('BALCAO_RETENCAO_DIAS: 180 by default, whole days only', () => {
    expect(retentionDays({})).toBe(180);
    expect(retentionDays({ BALCAO_RETENCAO_DIAS: '30' })).toBe(30);
    expect(() => retentionDays({ BALCAO_RETENCAO_DIAS: '1,5' })).toThrow(
      /BALCAO_RETENCAO_DIAS deve ser um número inteiro de dias/,
    );
  });

  it('balcao lgpd retencao --simular counts per table in pt-BR and changes nothing', async () => {
    const before = await texts(old);
    const env = cliEnv(db, { BALCAO_RETENCAO_DIAS: '180' });
    const r = await runCli(['lgpd', 'retencao', '--simular', '--json'], env);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.simulada).toBe(true);
    expect(j.dias).toBe(180);
    // The real clock is later than NOW: the old trail is older than the bound either way.
    expect(j.tabelas.mensagens).toBeGreaterThanOrEqual(1);
    expect(j.tabelas.consultas_vendas).toBeGreaterThanOrEqual(1);
    const human = await runCli(['lgpd', 'retencao', '--simular'], env);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/^Retenção de 180 dias: \d+ registros seriam anonimizados \(nada/);
    expect(human.out).toContain('mensagens — mensagens dos lojistas (texto)');
    expect(human.out).toContain('(nada foi alterado)');
    expect(await texts(old)).toEqual(before);
    const sim = await simulateRetention(db.app, CUTOFF);
    expect(sim).toEqual({
      mensagens: 1,
      intake_tentativas: 1,
      extracoes: 1,
      extracao_tentativas: 1,
      mensagens_saida: 1,
      consultas_vendas: 1,
      consultas_livres: 0,
    });
  });

  it('a pass anonymises old rows only; money, charges and the audit stay; a second pass touches nothing', async () => {
    const keep = await texts(recent);
    const charges = await money();
    const audits = await auditCount();
    const done = await runRetention(db.app, { antes: CUTOFF, lote: 500 });
    expect(totalOf(done)).toBe(6);
    const t = await texts(old);
    expect(t.mensagem).toBe(MARCADOR_RETENCAO);
    expect(t.extracao).toBe(MARCADOR_RETENCAO);
    expect(t.tentativa).toBe(MARCADOR_RETENCAO);
    expect(t.intake).toBe(MARCADOR_RETENCAO);
    expect(JSON.stringify(t.conteudo)).not.toContain('João');
    expect(t.saida).toBe(MARCADOR_RETENCAO);
    expect(t.pergunta).toBe(MARCADOR_RETENCAO);
    const all = JSON.stringify(
      await db.admin
        .query(
          `SELECT m.texto, e.texto, s.texto FROM mensagens m, extracoes e, mensagens_saida s
        WHERE m.id = $1 AND e.id = $2 AND s.id = $3`,
          [old.mensagem, old.extracao, old.saida],
        )
        .then((r) => r.rows),
    );
    expect(all).not.toMatch(/529|98765|João/);
    expect(await texts(recent)).toEqual(keep);
    expect(await money()).toEqual(charges);
    expect(await auditCount()).toBe(audits);
    const again = await runRetention(db.app, { antes: CUTOFF, lote: 500 });
    expect(totalOf(again)).toBe(0);
    expect(totalOf(await simulateRetention(db.app, CUTOFF))).toBe(0);
  });

  it('a pass killed in the middle of a batch leaves each row old or fully anonymised; the next pass finishes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await db.admin.query<{ id: string }>(
        `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, recebida_em, estado, resultado)
         VALUES ('teste', $1, 1, $2, $3, 'concluida', 'fila') RETURNING id`,
        [
          `kill-${i}`,
          `cliente ${i}: CPF 529.982.247-25`,
          new Date(CUTOFF.getTime() - (10 - i) * 60_000),
        ],
      );
      ids.push(Number(r.rows[0]!.id));
    }
    // The 5th row (oldest first) is locked by another transaction: batches of 2 commit rows 1–4,
    // then the third batch waits on row 5, and its backend is terminated there.
    const holder = await db.admin.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM mensagens WHERE id = $1 FOR UPDATE', [ids[4]]);
    const victim = new pg.Pool({
      connectionString: db.appUrl,
      max: 1,
      application_name: 'lgpd-vitima',
    });
    victim.on('error', () => undefined);
    const pass = runRetention(victim, { antes: CUTOFF, lote: 2 }).then(
      () => 'terminou',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    let waiting: number | null = null;
    for (let tries = 0; tries < 5000 && waiting === null; tries++) {
      const r = await db.admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'lgpd-vitima'
            AND wait_event_type = 'Lock'`,
      );
      waiting = r.rows[0]?.pid ?? null;
    }
    expect(waiting).not.toBeNull();
    await db.admin.query('SELECT pg_terminate_backend($1)', [waiting]);
    expect(await pass).not.toBe('terminou');
    await holder.query('ROLLBACK');
    holder.release();
    await victim.end().catch(() => undefined);

    const rows = async () =>
      (
        await db.admin.query<{ id: string; texto: string; anonimizada_em: Date | null }>(
          'SELECT id, texto, anonimizada_em FROM mensagens WHERE id = ANY($1) ORDER BY recebida_em',
          [ids],
        )
      ).rows;
    const mid = await rows();
    for (const [i, r] of mid.entries()) {
      const anonymised = r.texto === MARCADOR_RETENCAO && r.anonimizada_em !== null;
      const untouched = r.texto === `cliente ${i}: CPF 529.982.247-25` && r.anonimizada_em === null;
      expect(anonymised || untouched).toBe(true);
    }
    expect(mid.slice(0, 4).every((r) => r.anonimizada_em !== null)).toBe(true);
    expect(mid[4]!.anonimizada_em).toBeNull();

    const rest = await runRetention(db.app, { antes: CUTOFF, lote: 2 });
    expect(rest.mensagens).toBe(3);
    expect((await rows()).every((r) => r.texto === MARCADOR_RETENCAO)).toBe(true);
    expect(totalOf(await runRetention(db.app, { antes: CUTOFF, lote: 2 }))).toBe(0);
  });

  it("balcao worker's pg-boss job runs a pass with BALCAO_RETENCAO_DIAS's bound", async () => {
    const r = await db.admin.query<{ id: string }>(
      `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, recebida_em, estado, resultado)
       VALUES ('teste', 'job', 1, 'CPF 529.982.247-25', $1, 'concluida', 'fila') RETURNING id`,
      [new Date(NOW.getTime() - 31 * 86_400_000)],
    );
    const boss = await startBoss(db.app);
    let passed!: (c: unknown) => void;
    const pass = new Promise((resolve) => (passed = resolve));
    const job = await startRetentionJob({
      pool: db.app,
      boss,
      clock: fixedClock(NOW),
      logger: silentLogger,
      dias: 30,
      pollingIntervalSeconds: 0.5,
      onPass: passed,
    });
    try {
      expect(await pass).toMatchObject({ mensagens: 1 });
    } finally {
      await job.stop();
      await boss.stop({ graceful: false, close: false, wait: true });
    }
    const m = await db.admin.query('SELECT texto FROM mensagens WHERE id = $1', [r.rows[0]!.id]);
    expect(m.rows[0].texto).toBe(MARCADOR_RETENCAO);
  });
});
