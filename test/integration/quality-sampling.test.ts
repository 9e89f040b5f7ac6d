import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { judgeSample, nextSample, qualityReport } from '../../src-main/quality/review';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createQueueService } from '../../src-main/queue/service';
import { createMemorySettings } from '../../src-main/settings/memory';
import type { QualitySampling } from '../../src-main/settings/quality-sampling';
import { CAMPOS_QUALIDADE, qualityDraw } from '../../src-shared/quality';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  QUEUE_TEST_NOW,
  dados,
  ensureMerchants,
  insertExtraction,
} from '../support/queue-fixtures';

let db: TestDatabase;
let wide: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  wide = createPool(db.appUrl, { max: 24 });
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
});
afterAll(async () => {
  await wide.end();
  await db.drop();
});

function agent(name: string, amostra: QualitySampling) {
  return createQueueService({
    pool: wide,
    clock: fixedClock(QUEUE_TEST_NOW),
    settings: createMemorySettings(
      { operator: name, timeZone: 'America/Sao_Paulo', amostraQualidade: amostra },
      {},
    ),
    rules: extractionChargeRules,
    rerunner: null,
  });
}

/** An open, valid extraction of `modelo` with prompt `versao`. */
async function item(versao: string, modelo = 'claude-sonnet-4-6', texto?: string): Promise<number> {
  const id = await insertExtraction(db.admin, {
    status: 'completo',
    ...(texto ? { texto } : {}),
  });
  await db.admin.query('UPDATE extracoes SET modelo = $2, versao_prompt = $3 WHERE id = $1', [
    id,
    modelo,
    versao,
  ]);
  return id;
}

/** Claims and confirms the item as `who`; the charge's id. */
async function confirm(svc: ReturnType<typeof agent>, id: number, d = dados()): Promise<number> {
  const r = await svc.claim(id);
  if (!r.claimed) throw new Error(r.mensagem);
  const c = await svc.confirm({ id, token: r.token, dados: d });
  return c.cobranca.id;
}

describe('the draw', () => {
  it('is the same in PostgreSQL and in TypeScript for 10.000 ids', async () => {
    const r = await db.admin.query<{ id: string; s: number }>(
      'SELECT id, balcao_qualidade_sorteio(id) AS s FROM generate_series(1, 10000) AS id ORDER BY id',
    );
    expect(r.rows.map((x) => x.s)).toEqual(r.rows.map((x) => qualityDraw(Number(x.id))));
  });
});

describe('sampling when a charge is created', () => {
  it('concurrent creators: exactly the first N of each version, counted in the database', async () => {
    const cfg = { percentual: 0, inicial: 7 };
    const a = await Promise.all(Array.from({ length: 20 }, () => item('p-conc-a')));
    const b = await Promise.all(Array.from({ length: 4 }, () => item('p-conc-b')));
    const agents = ['Ana', 'Bia', 'Caio', 'Duda', 'Edu', 'Fabi'].map((n) => agent(n, cfg));
    const ids = [...a, ...b];
    await Promise.all(ids.map((id, i) => confirm(agents[i % agents.length]!, id)));
    const s = await db.admin.query<{ versao_prompt: string; ordem: string; motivo: string }>(
      `SELECT versao_prompt, ordem, motivo, origem FROM qualidade_amostras
        WHERE versao_prompt LIKE 'p-conc-%' ORDER BY versao_prompt, ordem`,
    );
    const of = (v: string) => s.rows.filter((r) => r.versao_prompt === v);
    expect(of('p-conc-a').map((r) => Number(r.ordem))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(of('p-conc-b').map((r) => Number(r.ordem))).toEqual([1, 2, 3, 4]);
    expect(s.rows.every((r) => r.motivo === 'inicial')).toBe(true);
    const v = await db.admin.query<{ versao_prompt: string; criadas: string }>(
      `SELECT versao_prompt, criadas FROM qualidade_versoes WHERE versao_prompt LIKE 'p-conc-%'
        ORDER BY versao_prompt`,
    );
    // The counter counts a pair's charges up to the first N and is not touched after them
    // (migration 1110: it was one hot row every confirm of a team waited on) — was 20 for p-conc-a.
    expect(v.rows.map((r) => [r.versao_prompt, Number(r.criadas)])).toEqual([
      ['p-conc-a', 7],
      ['p-conc-b', 4],
    ]);
  });

  it('after the start, the charge id decides (the same id always in or out); agent origin', async () => {
    const cfg = { percentual: 50, inicial: 0 };
    const ana = agent('Ana', cfg);
    const ids = await Promise.all(Array.from({ length: 12 }, () => item('p-sorteio')));
    const charges: number[] = [];
    for (const id of ids) charges.push(await confirm(ana, id));
    const s = await db.admin.query<{ cobranca_id: string; origem: string; motivo: string }>(
      `SELECT cobranca_id, origem, motivo FROM qualidade_amostras WHERE versao_prompt = 'p-sorteio'
        ORDER BY cobranca_id`,
    );
    expect(s.rows.map((r) => Number(r.cobranca_id))).toEqual(
      charges.filter((c) => qualityDraw(c) < 5000).sort((x, y) => x - y),
    );
    expect(s.rows.every((r) => r.origem === 'agente' && r.motivo === 'sorteio')).toBe(true);
  });

  it("past the first N, a creation neither writes nor waits for the pair's counter row", async () => {
    const cfg = { percentual: 100, inicial: 2 };
    const ana = agent('Ana', cfg);
    const ids = await Promise.all(Array.from({ length: 3 }, () => item('p-sem-fila')));
    await confirm(ana, ids[0]!);
    await confirm(ana, ids[1]!);
    // Another transaction holds the pair's row: before migration 1110 every creation bumped it,
    // so this confirm waited for that lock (a team's confirms queued behind each other).
    const holder = await db.admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        "SELECT * FROM qualidade_versoes WHERE versao_prompt = 'p-sem-fila' FOR UPDATE",
      );
      const outcome = await Promise.race([
        confirm(ana, ids[2]!).then((c) => ({ c })),
        new Promise<'bloqueado'>((r) => setTimeout(() => r('bloqueado'), 15_000)),
      ]);
      expect(outcome).not.toBe('bloqueado');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    const s = await db.admin.query<{ ordem: string | null; motivo: string }>(
      `SELECT ordem, motivo FROM qualidade_amostras WHERE versao_prompt = 'p-sem-fila'
        ORDER BY cobranca_id`,
    );
    expect(s.rows.map((r) => [r.ordem === null ? null : Number(r.ordem), r.motivo])).toEqual([
      [1, 'inicial'],
      [2, 'inicial'],
      [null, 'sorteio'],
    ]);
    const v = await db.admin.query<{ criadas: string }>(
      "SELECT criadas FROM qualidade_versoes WHERE versao_prompt = 'p-sem-fila'",
    );
    expect(Number(v.rows[0]?.criadas)).toBe(2);
  });

  it('a repeated confirm counts and samples nothing twice', async () => {
    const cfg = { percentual: 100, inicial: 0 };
    const ana = agent('Ana', cfg);
    const id = await item('p-repetida');
    const r = await ana.claim(id);
    if (!r.claimed) throw new Error(r.mensagem);
    await Promise.all(
      Array.from({ length: 5 }, () => ana.confirm({ id, token: r.token, dados: dados() })),
    );
    const n = await db.admin.query<{ n: number; criadas: number }>(
      `SELECT (SELECT count(*) FROM qualidade_amostras WHERE versao_prompt = 'p-repetida') AS n,
              (SELECT criadas FROM qualidade_versoes WHERE versao_prompt = 'p-repetida') AS criadas`,
    );
    expect(n.rows[0]).toEqual({ n: 1, criadas: 1 });
  });
});

describe('the supervisor judges a sample', () => {
  it('round trip: next sample with message and both versions, judged once, audited, then the next', async () => {
    await db.admin.query('UPDATE qualidade_amostras SET julgada_por = $1, julgada_em = now()', [
      'antes',
    ]);
    const cfg = { percentual: 0, inicial: 100 };
    const bia = agent('Bia', cfg);
    const texto = 'manda um link de 150 reais pro João Silva no cartão em 3x, vence sexta';
    const id1 = await item('p-julgar', 'claude-sonnet-4-6', texto);
    const id2 = await item('p-julgar');
    const c1 = await confirm(bia, id1, dados({ parcelas: 2 }));
    const c2 = await confirm(bia, id2);
    const s = await nextSample(db.app);
    expect(s).toMatchObject({
      cobrancaId: c1,
      extracaoId: id1,
      texto,
      merchantNome: 'Padaria Central',
      modelo: 'claude-sonnet-4-6',
      versaoPrompt: 'p-julgar',
      origem: 'agente',
      motivo: 'inicial',
      criadaPor: 'Bia',
      pendentes: 2,
      extraidos: { valor_centavos: 15000, parcelas: 3, metodo: 'cartao' },
      finais: { valor_centavos: 15000, parcelas: 2, metodo: 'cartao', vencimento: '2026-12-04' },
    });
    expect((await nextSample(db.app, { depoisDe: c1 }))?.cobrancaId).toBe(c2);
    const campos = Object.fromEntries(CAMPOS_QUALIDADE.map((k) => [k, k !== 'parcelas'])) as Record<
      (typeof CAMPOS_QUALIDADE)[number],
      boolean
    >;
    const j = await judgeSample(db.app, { cobrancaId: c1, campos, operador: 'Sara' });
    expect(j.julgadaPor).toBe('Sara');
    await expect(
      judgeSample(db.app, { cobrancaId: c1, campos, operador: 'Outra' }),
    ).rejects.toMatchObject({
      code: 'conflito',
      message: `A amostra da cobrança ${c1} já foi julgada por Sara.`,
    });
    const stored = await db.admin.query<{ campo: string; certo: boolean }>(
      'SELECT campo, certo FROM qualidade_julgamentos WHERE cobranca_id = $1 ORDER BY campo',
      [c1],
    );
    expect(stored.rows).toHaveLength(6);
    expect(stored.rows.filter((r) => !r.certo).map((r) => r.campo)).toEqual(['parcelas']);
    const a = await db.admin.query<{ operador: string; detalhes: unknown; depois: unknown }>(
      `SELECT operador, detalhes, depois FROM auditoria WHERE acao = 'qualidade_julgada'
        AND extracao_id = $1`,
      [id1],
    );
    expect(a.rows).toEqual([{ operador: 'Sara', detalhes: { cobranca_id: c1 }, depois: campos }]);
    expect((await nextSample(db.app))?.cobrancaId).toBe(c2);
    await expect(
      judgeSample(db.app, { cobrancaId: 999_999, campos, operador: 'Sara' }),
    ).rejects.toMatchObject({ code: 'nao_encontrado' });
  });
});

describe('the measured accuracy', () => {
  it('per field and per model/prompt version, with the Wilson interval, exact on a crafted set', async () => {
    // A fresh set: only the crafted version counts below.
    const cfg = { percentual: 0, inicial: 1000 };
    const caio = agent('Caio', cfg);
    const charges: number[] = [];
    for (let i = 0; i < 10; i++) charges.push(await confirm(caio, await item('p-medida', 'm-x')));
    // valor: 9/10 right; parcelas: 10/10; metodo: 0/10 wrong on 2; the rest right.
    for (const [i, c] of charges.entries()) {
      const campos = Object.fromEntries(CAMPOS_QUALIDADE.map((k) => [k, true])) as Record<
        (typeof CAMPOS_QUALIDADE)[number],
        boolean
      >;
      if (i === 0) campos.valor_centavos = false;
      if (i === 1 || i === 2) campos.metodo = false;
      await judgeSample(db.app, { cobrancaId: c, campos, operador: 'Sara' });
    }
    // An automatic sample of the same version, judged all right, and one not judged yet.
    await db.admin.query(
      `UPDATE qualidade_amostras SET origem = 'automatica' WHERE cobranca_id = ANY($1)`,
      [charges.slice(0, 4)],
    );
    await confirm(caio, await item('p-medida', 'm-x'));
    const r = await qualityReport(db.app, cfg);
    const v = r.versoes.find((x) => x.modelo === 'm-x' && x.versaoPrompt === 'p-medida')!;
    expect(v.amostras).toBe(11);
    expect(v.julgadas).toBe(10);
    const campo = (k: string) => v.campos.find((c) => c.campo === k)!;
    expect(campo('valor_centavos')).toMatchObject({ acertos: 9, n: 10, taxa: 0.9 });
    expect(campo('valor_centavos').texto).toBe('90,0% (IC 95%: 59,6–98,2%, n = 10)');
    expect(campo('parcelas').texto).toBe('100,0% (IC 95%: 72,2–100,0%, n = 10)');
    expect(campo('metodo').texto).toBe('80,0% (IC 95%: 49,0–94,3%, n = 10)');
    expect(v.todosCampos).toMatchObject({ acertos: 57, n: 60 });
    expect(v.cobrancasCorretas).toMatchObject({ acertos: 7, n: 10 });
    // Automatic: charges 0–3 — 0 (valor), 1 and 2 (metodo) wrong: 3 of 4.
    expect(v.errosAutomaticas).toMatchObject({ acertos: 3, n: 4, taxa: 0.75 });
    expect(r.pendentes).toBeGreaterThanOrEqual(1);
  });
});
