/**
 * `balcao fila qualidade [--json]` (#39.4): the service's figures as JSON, a pt-BR table with the
 * Wilson intervals, a person without the supervisor role refused, and a bad
 * BALCAO_AMOSTRA_QUALIDADE refused in pt-BR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src-main/people/admin';
import { judgeSample, qualityReport } from '../../src-main/quality/review';
import type { QualityReport } from '../../src-shared/contract/quality';
import { CAMPOS_QUALIDADE } from '../../src-shared/quality';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

let db: TestDatabase;
const SENHA = 'senha-de-teste-123';
const SUPORTE = `fila_qualidade_${process.pid}_ana`;

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
  // Four charges of one version, sampled as its first ones; three judged.
  const ana = queueFor(db.app, { operator: 'ana' });
  const charges: number[] = [];
  for (let i = 0; i < 4; i++) {
    const id = await insertExtraction(db.admin, { status: 'completo' });
    await db.admin.query(
      `UPDATE extracoes SET modelo = 'claude-sonnet-4-6', versao_prompt = 'p-cli' WHERE id = $1`,
      [id],
    );
    const r = await ana.claim(id);
    if (!r.claimed) throw new Error(r.mensagem);
    charges.push((await ana.confirm({ id, token: r.token, dados: dados() })).cobranca.id);
  }
  for (const [i, c] of charges.slice(0, 3).entries()) {
    const campos = Object.fromEntries(CAMPOS_QUALIDADE.map((k) => [k, true])) as Record<
      (typeof CAMPOS_QUALIDADE)[number],
      boolean
    >;
    if (i === 0) campos.cliente_nome = false;
    await judgeSample(db.app, { cobrancaId: c, campos, operador: 'sara' });
  }
});
afterAll(async () => {
  await db.admin.query(`DROP ROLE IF EXISTS ${SUPORTE}`).catch(() => undefined);
  await db.drop();
});

describe('balcao fila qualidade', () => {
  it('--json is the service function; the table is pt-BR with the intervals', async () => {
    const env = cliEnv(db, { BALCAO_AMOSTRA_QUALIDADE: '2,5' });
    const r = await runCli(['fila', 'qualidade', '--json'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as QualityReport;
    expect(out).toEqual(await qualityReport(db.app, { percentual: 2.5, inicial: 50 }));
    expect(out.pendentes).toBe(1);
    const v = out.versoes.find((x) => x.versaoPrompt === 'p-cli')!;
    expect(v).toMatchObject({ modelo: 'claude-sonnet-4-6', amostras: 4, julgadas: 3 });
    expect(v.campos.find((c) => c.campo === 'cliente_nome')).toMatchObject({
      acertos: 2,
      n: 3,
      texto: '66,7% (IC 95%: 20,8–93,9%, n = 3)',
    });

    const t = await runCli(['fila', 'qualidade'], env);
    expect(t.code).toBe(0);
    expect(t.out).toContain('Qualidade da extração');
    expect(t.out).toContain('Amostragem: 2,5% das cobranças; as primeiras 50');
    expect(t.out).toContain('Amostras esperando julgamento: 1.');
    expect(t.out).toContain('Modelo claude-sonnet-4-6 · prompt p-cli — 3 de 4 amostras julgadas');
    expect(t.out).toMatch(/Cliente\s+66,7% \(IC 95%: 20,8–93,9%, n = 3\)/);
    expect(t.out).toMatch(/Valor\s+100,0% \(IC 95%: 43,9–100,0%, n = 3\)/);
  });

  it('refuses a person without the supervisor role, and a bad share, in pt-BR', async () => {
    const person = cliEnv(db, {
      APP_DATABASE_URL: db.appUrl.replace(/\/\/[^@]*@/, `//${SUPORTE}:${SENHA}@`),
    });
    const refused = await runCli(['fila', 'qualidade', '--json'], person);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out)).toEqual({ erro: 'Só um supervisor pode fazer isso.' });

    const bad = await runCli(
      ['fila', 'qualidade', '--json'],
      cliEnv(db, { BALCAO_AMOSTRA_QUALIDADE: '120' }),
    );
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.out).erro).toMatch(/^BALCAO_AMOSTRA_QUALIDADE inválida \("120"\)/);
  });
});
