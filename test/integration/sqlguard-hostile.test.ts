/**
 * The hostile corpus through the whole guard (layer 1 parser → layer 3 executor → layer 2 role
 * and view), on ONE pooled analytics connection. After each item: no canary of merchant 2
 * anywhere in the output or the error, nothing written, and the same pool answers a normal
 * query correctly for merchant 1 and for merchant 2.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors';
import { silentLogger } from '../../src-main/util/logger';
import { checkSql } from '../../src-main/sqlguard/guard';
import { createFreeQueryLog, runFreeSql } from '../../src-main/sales/free-sql/run';
import type { TestDatabase } from '../support/db';
import {
  BOUNDED_MS,
  checksum,
  closeGuardDatabase,
  expectNoLeak,
  loadCorpus,
  M1,
  M2,
  NORMAL_SQL,
  openGuardDatabase,
  row0,
  type HostileItem,
} from '../support/sqlguard';

const TIMEOUT_MS = 400;
const corpus = loadCorpus();

let db: TestDatabase;
let pool: pg.Pool;
let before: string;
let connections = 0;
const outcomes = new Map<string, string>();

beforeAll(async () => {
  ({ db, pool, before } = await openGuardDatabase());
  pool.on('connect', () => connections++);
});
afterAll(() => closeGuardDatabase({ db, pool }));

async function normal(merchantId: number) {
  const r = await runFreeSql(
    pool,
    { timeoutMs: 3_000 },
    { merchantId, sql: NORMAL_SQL, origem: 'app' },
  );
  return row0(r);
}

describe('hostile corpus through all three layers', () => {
  it('is large and covers every attack class', () => {
    expect(corpus.length).toBeGreaterThan(650);
    const classes = new Set(corpus.map((i) => i.classe));
    for (const c of [
      'set_config',
      'set_config_posicao',
      'contexto',
      'relacao',
      'catalogo',
      'funcao_perigosa',
      'sono_bloqueio',
      'nao_select',
      'empilhamento_quoting',
      'erro_oraculo',
      'oraculo_par',
      'recurso',
      'legitima',
      // #12 round 2
      'atividade_ids',
      'estatisticas',
      'wal_xid_sessao',
      'plano',
      'relogio_texto',
      'fidelidade',
      'empacotamento',
    ]) {
      expect(classes.has(c), c).toBe(true);
    }
    expect(new Set(corpus.map((i) => i.id)).size).toBe(corpus.length);
  });

  it.each(corpus.map((i) => [i.id, i] as [string, HostileItem]))('%s', async (_id, item) => {
    const t0 = performance.now();
    let out: string;
    try {
      const r = await runFreeSql(
        pool,
        { timeoutMs: TIMEOUT_MS, timeZone: 'America/Sao_Paulo' },
        { merchantId: 1, sql: item.sql, origem: 'cli' },
      );
      out = JSON.stringify({ linhas: r.linhas });
      expect(r.linhas.length).toBeLessThanOrEqual(500);
      expect(Buffer.byteLength(out)).toBeLessThanOrEqual(1_000_100);
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      const msg = (e as AppError).message;
      // Our own pt-BR sentences only, never PostgreSQL's text.
      expect(msg).toMatch(/^(consulta recusada: |A consulta )/);
      expect(msg.replace(/ \([a-z0-9_]*\)$/i, '')).not.toMatch(
        /permission denied|syntax error|does not exist|ERROR|relation|function /,
      );
      out = JSON.stringify({ erro: msg });
    }
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeLessThan(BOUNDED_MS);
    expectNoLeak(out, item.id);
    if (item.oraculo) outcomes.set(item.id, out);

    expect(await checksum(db.admin)).toBe(before);
    expect(await normal(1)).toEqual(M1);
    expect(await normal(2)).toEqual(M2);

    // Layer 1's verdict is part of the corpus: a change is a decision, not an accident.
    const verdict = await checkSql(item.sql);
    expect(verdict.ok, `layer 1 verdict for ${item.sql.slice(0, 200)}`).toBe(Boolean(item.aceita));
  });

  it('oracle pairs: probing for merchant 2 values gives the same outcome as probing for absent ones', () => {
    const groups = new Map<string, string[]>();
    for (const i of corpus.filter((x) => x.oraculo)) {
      const o = outcomes.get(i.id);
      expect(o, i.id).toBeDefined();
      groups.set(i.oraculo as string, [...(groups.get(i.oraculo as string) ?? []), o as string]);
    }
    expect(groups.size).toBeGreaterThanOrEqual(5);
    for (const [g, outs] of groups) expect(new Set(outs).size, g).toBe(1);
  });

  it('ran the whole corpus on one pooled connection (reused, not reopened)', () => {
    // A connection is only replaced when the executor kills it on purpose (wire cap, deadline).
    expect(connections).toBeLessThanOrEqual(3);
  });
});

describe('free-query log', () => {
  it('records question, SQL, verdict and timing for accepted and refused queries', async () => {
    const log = createFreeQueryLog(db.app, silentLogger);
    await runFreeSql(
      pool,
      { timeoutMs: 3_000 },
      {
        merchantId: 1,
        sql: 'select count(*) from vendas_ia',
        origem: 'modelo',
        pergunta: 'quantas vendas?',
      },
      log,
    );
    await expect(
      runFreeSql(
        pool,
        { timeoutMs: 3_000 },
        { merchantId: 1, sql: 'select * from transacoes', origem: 'modelo', pergunta: 'tudo' },
        log,
      ),
    ).rejects.toThrow('consulta recusada: só é permitido ler a visão de vendas');
    const r = await db.admin.query(
      `SELECT pergunta, sql, veredito, codigo, linhas, duracao_ms FROM consultas_livres ORDER BY id`,
    );
    expect(r.rows).toHaveLength(2);
    expect(r.rows[0]).toMatchObject({ pergunta: 'quantas vendas?', veredito: 'aceita', linhas: 1 });
    expect(r.rows[1]).toMatchObject({
      sql: 'select * from transacoes',
      veredito: 'recusada',
      codigo: 'relacao',
    });
    for (const row of r.rows as { duracao_ms: number }[])
      expect(row.duracao_ms).toBeGreaterThanOrEqual(0);
    await expect(db.app.query('DELETE FROM consultas_livres')).rejects.toThrow();
  });
});
