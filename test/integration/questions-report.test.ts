/**
 * The "Perguntas" report on real PostgreSQL: outcome counts and rates against a seeded log,
 * unanswered questions grouped by normalised text, chip edits paired with the answer shown
 * before them (end to end through the panel and the fake Messages API), and the path from a
 * logged question to an eval case.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult } from '@shared/contract';
import type { EvalCaseDraft, EvalCaseResult, QuestionsReport } from '@shared/contract/questions';
import { localDate } from '@shared/time';
import { readCases, suiteConsultas } from '../../src-main/evals';
import { addEvalCase } from '../../src-main/evals/add-case';
import { invokeChannel } from '../../src-main/ipc/invoke';
import type { CallContext, Handlers } from '../../src-main/ipc/types';
import { questionsReport } from '../../src-main/sales/questions-report';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { testHandlers } from '../support/handlers';
import { startFakeAnthropic, toolUseReply, type FakeAnthropic } from '../support/fake-anthropic';

const ZONE = 'America/Sao_Paulo';
let db: TestDatabase;
let fake: FakeAnthropic;
let handlers: Handlers;

const consulta = (over: Record<string, unknown> = {}) => ({
  metrica: 'total_bruto',
  agrupar_por: 'nenhum',
  periodo: 'ontem',
  data_inicio: '2026-03-15',
  data_fim: '2026-03-15',
  modalidades: [],
  ordem: null,
  limite: null,
  ...over,
});

interface Row {
  m?: number;
  origem?: 'pergunta' | 'dsl';
  pergunta?: string | null;
  resultado: 'respondida' | 'esclarecimento' | 'invalida' | 'erro';
  dsl?: unknown;
  consulta?: unknown;
  desfecho?: string;
  sessao?: string;
  em: string;
}

async function log(r: Row): Promise<number> {
  const { rows } = await db.admin.query<{ id: string }>(
    `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, dsl, consulta,
       resultado, duracao_ms, desfecho, sessao, criada_em)
     VALUES ($1, 'ana', $2, $3, $4, $5, $6, 10, $7, $8, $9) RETURNING id`,
    [
      r.m ?? 1,
      r.origem ?? 'pergunta',
      r.pergunta === undefined ? 'quanto vendi ontem?' : r.pergunta,
      r.dsl === undefined ? null : JSON.stringify(r.dsl),
      r.consulta === undefined ? null : JSON.stringify(r.consulta),
      r.resultado,
      r.desfecho ?? null,
      r.sessao ?? null,
      r.em,
    ],
  );
  return Number(rows[0]!.id);
}

function ctx(sessionId: string): CallContext {
  return { sessionId, emit: () => undefined };
}

async function ok<T>(p: Promise<IpcResult<unknown>>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`esperava sucesso: ${r.error.code} ${r.error.message}`);
  return r.data as T;
}

let perguntaId: number;

beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (1, 'Padaria'), (2, 'Farmácia'), (3, 'Ótica')`,
  );
  // March 2026 (the report's period: 01–31/03) …
  perguntaId = await log({
    resultado: 'respondida',
    dsl: { metrica: 'total_bruto', periodo: 'ontem' },
    consulta: consulta(),
    em: '2026-03-16T09:00:00-03:00',
  });
  await log({ resultado: 'respondida', consulta: consulta(), em: '2026-03-16T10:00:00-03:00' });
  await log({
    pergunta: 'Qual foi a MAIOR venda?',
    resultado: 'esclarecimento',
    dsl: { nao_expressavel: true },
    em: '2026-03-10T10:00:00-03:00',
  });
  await log({
    m: 2,
    pergunta: 'qual foi a maior vénda',
    resultado: 'esclarecimento',
    dsl: { nao_expressavel: true },
    em: '2026-03-12T10:00:00-03:00',
  });
  await log({
    m: 3,
    pergunta: '  qual   foi a maior venda ?',
    resultado: 'erro',
    dsl: { nao_expressavel: true },
    desfecho: 'sql_recusado',
    em: '2026-03-14T10:00:00-03:00',
  });
  await log({
    pergunta: 'qual a média de parcelas?',
    resultado: 'respondida',
    dsl: { nao_expressavel: true },
    em: '2026-03-14T11:00:00-03:00',
  });
  await log({
    pergunta: 'e a loja do lado?',
    resultado: 'esclarecimento',
    dsl: { pergunta_esclarecimento: 'De qual loja?' },
    em: '2026-03-15T11:00:00-03:00',
  });
  await log({
    pergunta: 'quanto vou receber',
    resultado: 'invalida',
    em: '2026-03-20T11:00:00-03:00',
  });
  await log({ pergunta: 'quanto vou receber', resultado: 'erro', em: '2026-03-21T11:00:00-03:00' });
  await log({
    pergunta: 'vendas de ontem no débito',
    resultado: 'erro',
    consulta: consulta({ modalidades: ['debito'] }),
    em: '2026-03-22T11:00:00-03:00',
  });
  // … 00:30 on 01/04 in São Paulo is still 31/03? No: it is April — outside the period.
  await log({ resultado: 'respondida', consulta: consulta(), em: '2026-04-01T00:30:00-03:00' });
  // 23:30 on 31/03 local is 02:30 UTC on 01/04: inside.
  await log({ resultado: 'respondida', consulta: consulta(), em: '2026-03-31T23:30:00-03:00' });
  // February (the previous period of the same length: 29/01–28/02): one answer, one error.
  await log({ resultado: 'respondida', consulta: consulta(), em: '2026-02-10T10:00:00-03:00' });
  await log({ pergunta: 'x', resultado: 'invalida', em: '2026-02-11T10:00:00-03:00' });
  // Chip edits in a panel session: métrica changed, then período; a CLI DSL is no edit.
  await log({
    resultado: 'respondida',
    consulta: consulta(),
    sessao: 'w1',
    em: '2026-03-18T10:00:00-03:00',
  });
  await log({
    origem: 'dsl',
    pergunta: null,
    resultado: 'respondida',
    consulta: consulta({ metrica: 'total_liquido' }),
    sessao: 'w1',
    em: '2026-03-18T10:01:00-03:00',
  });
  await log({
    origem: 'dsl',
    pergunta: null,
    resultado: 'respondida',
    consulta: consulta({
      metrica: 'total_liquido',
      periodo: null,
      data_inicio: '2026-03-01',
      data_fim: '2026-03-15',
    }),
    sessao: 'w1',
    em: '2026-03-18T10:02:00-03:00',
  });
  await log({
    origem: 'dsl',
    pergunta: null,
    resultado: 'respondida',
    consulta: consulta({ metrica: 'quantidade' }),
    em: '2026-03-18T10:03:00-03:00',
  });
  await db.admin.query(
    `INSERT INTO consultas_livres (merchant_id, origem, sql, veredito, duracao_ms, criada_em)
     VALUES (1, 'modelo', 'select 1', 'aceita', 1, '2026-03-14T11:00:00-03:00'),
            (3, 'modelo', 'select now()', 'recusada', 1, '2026-03-14T10:00:00-03:00'),
            (3, 'modelo', 'select now()', 'recusada', 1, '2026-03-14T10:00:01-03:00'),
            (1, 'cli', 'select 1', 'aceita', 1, '2026-03-14T11:00:00-03:00')`,
  );
  handlers = testHandlers(
    db,
    createMemorySettings(
      { timeZone: ZONE, queryTimeoutMs: 3000, anthropicBaseUrl: fake.url, maxRetries: 0 },
      { ANTHROPIC_API_KEY: 'chave-de-teste' },
    ),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all([db.drop(), fake.close()]);
});

describe('questionsReport against a seeded log', () => {
  let r: QuestionsReport;
  beforeAll(async () => {
    r = await questionsReport(db.app, { de: '2026-03-01', ate: '2026-03-31' }, ZONE);
  });

  it('counts questions (not chip edits) by outcome, with rates and the previous period', () => {
    const by = Object.fromEntries(r.desfechos.map((d) => [d.desfecho, d.quantidade]));
    expect(by).toEqual({
      dsl: 4,
      esclarecimento: 1,
      nao_expressavel: 2,
      sql_livre: 1,
      sql_recusado: 1,
      erro_modelo: 2,
      erro: 1,
    });
    expect(r.total).toBe(12);
    expect(r.fracaoRespondidas).toBeCloseTo(5 / 12, 10);
    expect(r.totalAnterior).toBe(2);
    const dsl = r.desfechos.find((d) => d.desfecho === 'dsl')!;
    expect(dsl.fracao).toBeCloseTo(4 / 12, 10);
    expect(dsl.fracaoAnterior).toBe(0.5);
  });

  it('has every local day of the period, April 1st at 00:30 outside and 31/03 23:30 inside', () => {
    expect(r.porDia).toHaveLength(31);
    expect(r.porDia[0]).toEqual({ dia: '2026-03-01', total: 0, respondidas: 0 });
    expect(r.porDia.find((d) => d.dia === '2026-03-31')).toEqual({
      dia: '2026-03-31',
      total: 1,
      respondidas: 1,
    });
    expect(r.porDia.find((d) => d.dia === '2026-03-16')).toEqual({
      dia: '2026-03-16',
      total: 2,
      respondidas: 2,
    });
    expect(r.porDia.reduce((s, d) => s + d.total, 0)).toBe(r.total);
  });

  it('groups unanswered questions by text with accents, case and spacing folded', () => {
    const [top, second] = r.naoRespondidas;
    expect(top).toMatchObject({
      chave: 'qual foi a maior venda',
      quantidade: 3,
      lojistas: 3,
      desfecho: 'nao_expressavel',
      ultimaVez: new Date('2026-03-14T13:00:00Z').toISOString(),
    });
    expect(top!.exemplos.map((e) => e.pergunta)).toEqual([
      '  qual   foi a maior venda ?',
      'qual foi a maior vénda',
      'Qual foi a MAIOR venda?',
    ]);
    expect(top!.exemplos[0]).toMatchObject({ merchantId: 3, dia: '2026-03-14' });
    expect(second).toMatchObject({ chave: 'quanto vou receber', quantidade: 2, lojistas: 1 });
    // Answered questions never show up as unanswered.
    expect(r.naoRespondidas.some((g) => g.chave.includes('media de parcelas'))).toBe(false);
  });

  it('ranks chip edits after an answer, from what to what', () => {
    expect(r.totalEdicoes).toBe(2);
    expect(r.edicoes.map((e) => [e.campo, e.quantidade])).toEqual([
      ['periodo', 1],
      ['metrica', 1],
    ]);
    expect(r.edicoes.find((e) => e.campo === 'metrica')!.mudancas).toEqual([
      { antes: 'total bruto', depois: 'total líquido', quantidade: 1 },
    ]);
    expect(r.edicoes.find((e) => e.campo === 'periodo')!.mudancas[0]).toMatchObject({
      antes: 'ontem',
      quantidade: 1,
    });
  });

  it("counts the model's free-SQL attempts by verdict", () => {
    expect(r.sqlLivre).toEqual({ aceitas: 1, recusadas: 2, falharam: 0 });
  });
});

describe('through the IPC wrapper', () => {
  it('refuses a period longer than 366 days or reversed, in pt-BR', async () => {
    const long = await invokeChannel(
      handlers,
      'sales/questionsReport',
      { de: '2025-01-01', ate: '2026-03-01' },
      ctx('w'),
    );
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error.message).toContain('até 366 dias');
    const reversed = await invokeChannel(
      handlers,
      'sales/questionsReport',
      { de: '2026-03-02', ate: '2026-03-01' },
      ctx('w'),
    );
    expect(reversed.ok).toBe(false);
  });

  it('a question and a chip edit in the panel reach the report as an edit', async () => {
    fake.handle(() =>
      toolUseReply('consultar_vendas', { metrica: 'total_bruto', periodo: 'ontem' }),
    );
    await ok(invokeChannel(handlers, 'sales/selectMerchant', { merchantId: 1 }, ctx('janela-7')));
    await ok(
      invokeChannel(
        handlers,
        'sales/ask',
        { pergunta: 'quanto vendi ontem?', requestId: 'pergunta-01' },
        ctx('janela-7'),
      ),
    );
    await ok(
      invokeChannel(
        handlers,
        'sales/run',
        { consulta: { metrica: 'total_bruto', periodo: 'ontem', modalidades: ['pix'] } },
        ctx('janela-7'),
      ),
    );
    // The log's own clock (the database's now()) dates the rows: report on that day.
    const dia = localDate(new Date(), ZONE);
    const r = await ok<QuestionsReport>(
      invokeChannel(handlers, 'sales/questionsReport', { de: dia, ate: dia }, ctx('w')),
    );
    expect(r.edicoes).toEqual([
      {
        campo: 'modalidades',
        quantidade: 1,
        mudancas: [{ antes: 'todas', depois: 'Pix', quantidade: 1 }],
      },
    ]);
    expect(r.recentes[0]).toMatchObject({
      pergunta: 'quanto vendi ontem?',
      desfecho: 'dsl',
      dia,
    });
  });
});

describe('from a logged question to an eval case', () => {
  it('drafts with the day asked and what the model filled; appends a valid case once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-evals-'));
    try {
      writeFileSync(
        join(dir, 'consultas.jsonl'),
        '{"pergunta": "quanto vendi hoje?", "hoje": "2026-03-20", "esperado": {"metrica": "quantidade", "periodo": "hoje"}}',
      );
      const draft = await ok<EvalCaseDraft>(
        invokeChannel(handlers, 'sales/evalCaseDraft', { id: perguntaId }, ctx('w')),
      );
      expect(draft).toMatchObject({
        pergunta: 'quanto vendi ontem?',
        hoje: '2026-03-16',
        sugerido: { metrica: 'total_bruto', periodo: 'ontem' },
      });
      const opts = { timeZone: ZONE, dir };
      const res: EvalCaseResult = await addEvalCase(
        db.app,
        {
          id: perguntaId,
          esperado: { metrica: 'total_bruto', periodo: 'ontem', modalidades: ['pix'] },
          nota: 'corrigido',
        },
        opts,
      );
      expect(res.linha).toBe(2);
      const casos = readCases(suiteConsultas, join(dir, 'consultas.jsonl'));
      expect(casos.map((c) => c.caso.pergunta)).toEqual([
        'quanto vendi hoje?',
        'quanto vendi ontem?',
      ]);
      expect(casos[1]!.caso).toEqual({
        pergunta: 'quanto vendi ontem?',
        hoje: '2026-03-16',
        esperado: { metrica: 'total_bruto', periodo: 'ontem', modalidades: ['pix'] },
        nota: 'corrigido',
      });
      await expect(
        addEvalCase(
          db.app,
          { id: perguntaId, esperado: { metrica: 'total_bruto', periodo: 'ontem' } },
          opts,
        ),
      ).rejects.toThrow(
        'Já existe um caso para esta pergunta com a data de referência 2026-03-16.',
      );
      await expect(
        addEvalCase(
          db.app,
          { id: perguntaId + 2, esperado: { metrica: 'total_bruto', data_inicio: '2026-03-01' } },
          opts,
        ),
      ).rejects.toThrow(/O caso não é válido: .*data_fim/);
      // Nothing half-written: still two lines.
      expect(readFileSync(join(dir, 'consultas.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown id and a chip edit (not a question), and says where to configure', async () => {
    const missing = await invokeChannel(handlers, 'sales/evalCaseDraft', { id: 999_999 }, ctx('w'));
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.code).toBe('nao_encontrado');
    await expect(
      addEvalCase(db.app, { id: perguntaId, esperado: {} }, { timeZone: ZONE, dir: null }),
    ).rejects.toThrow('Defina BALCAO_EVALS_DIR');
  });
});

describe('balcao perguntas (CLI)', () => {
  const env = () => ({
    DATABASE_URL: db.adminUrl,
    APP_DATABASE_URL: db.appUrl,
    ANALYTICS_DATABASE_URL: db.analyticsUrl,
    BALCAO_TIME_ZONE: ZONE,
    BALCAO_LOG_LEVEL: 'silent',
  });
  async function cli(args: string[]) {
    const { main } = await import('../../src-main/cli/main');
    let out = '';
    const code = await main(
      args,
      { out: (t) => void (out += t), err: () => undefined, isTTY: false },
      env(),
    );
    return { code, out };
  }

  it('prints the same report as the screen, as JSON and as text', async () => {
    const j = await cli(['perguntas', '--desde', '2026-03-01', '--ate', '2026-03-31', '--json']);
    expect(j.code).toBe(0);
    const r = JSON.parse(j.out) as QuestionsReport;
    expect(r).toMatchObject({ de: '2026-03-01', ate: '2026-03-31', total: 12, totalAnterior: 2 });
    expect(r.naoRespondidas[0]!.chave).toBe('qual foi a maior venda');
    const t = await cli(['perguntas', '--desde', '2026-03-01', '--ate', '2026-03-31']);
    expect(t.code).toBe(0);
    expect(t.out).toContain('Perguntas de 01/03/2026 a 31/03/2026');
    expect(t.out).toMatch(/Respondida pela consulta pronta\s+4\s+33,3%\s+50,0%/);
    expect(t.out).toContain('3×  "qual foi a maior venda" — 3 lojista(s)');
    expect(t.out).toContain('Métrica (1): total bruto → total líquido (1)');
  });

  it('refuses a reversed or too long period with a pt-BR usage error', async () => {
    const r = await cli(['perguntas', '--desde', '2026-04-01', '--ate', '2026-03-01', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({
      erro: expect.stringContaining('A data inicial deve ser anterior ou igual à final.'),
    });
    const bad = await cli(['perguntas', '--desde', '2026-02-30']);
    expect(bad.code).toBe(2);
  });
});
