/** `balcao ask` through the real CLI entry (commander, context, databases), on a test database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db, { BALCAO_TIME_ZONE: 'America/Sao_Paulo', BALCAO_OPERATOR: 'cli-teste' });
  await db.admin.query(`INSERT INTO merchants (id, nome) VALUES (5, 'Açaí do Zé'), (6, 'Vizinho')`);
  await db.admin.query(
    `INSERT INTO transacoes (merchant_id, status, modalidade, bandeira, valor_bruto_centavos,
       valor_liquido_centavos, aprovada_em) VALUES
       (5, 'aprovada', 'credito_avista', 'visa', 100000, 97000, '2026-03-10T15:00:00Z'),
       (5, 'aprovada', 'credito_parcelado', 'elo', 23456, 22000, '2026-03-15T23:00:00Z'),
       (5, 'aprovada', 'pix', NULL, 5000, 4950, '2026-03-12T12:00:00Z'),
       (5, 'negada', 'credito_avista', 'visa', 777700, 0, '2026-03-11T12:00:00Z'),
       (6, 'aprovada', 'credito_avista', 'visa', 999900, 0, '2026-03-11T12:00:00Z'),
       (5, 'aprovada', 'credito_avista', 'visa', 1, 1, '2026-03-16T03:00:00Z')`,
  );
});
afterAll(() => db.drop());

const run = (args: string[]) => runCli(args, env);
/** `balcao ask --merchant 5` followed by `more`. */
const askMerchant5 = (...more: string[]) => run(['ask', '--merchant', '5', ...more]);

describe('balcao ask --dsl', () => {
  it('prints exactly consulta, linhas, interpretacao, resposta with --json', async () => {
    const r = await askMerchant5(
      '--hoje',
      '2026-03-16',
      '--dsl',
      '{"metrica":"total_bruto","periodo":"semana_passada","modalidades":["credito_avista","credito_parcelado"]}',
      '--json',
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual(['consulta', 'linhas', 'interpretacao', 'resposta']);
    expect(j.consulta).toEqual({
      metrica: 'total_bruto',
      agrupar_por: 'nenhum',
      periodo: 'semana_passada',
      data_inicio: '2026-03-09',
      data_fim: '2026-03-15',
      modalidades: ['credito_avista', 'credito_parcelado'],
      ordem: null,
      limite: null,
    });
    // 1.000,00 + 234,56 (the 15/03 sale at 20:00 local); not the refused one, not the neighbour,
    // not Pix, not the 16/03 00:00 sale.
    expect(j.linhas).toEqual([{ grupo: null, valor: 123456 }]);
    expect(j.interpretacao).toMatch(
      /^Considerei vendas aprovadas de 09\/03\/2026 a 15\/03\/2026 \(semana passada\), modalidades: crédito à vista, crédito parcelado\./,
    );
    expect(String(j.resposta).replace(/\u00a0/g, ' ')).toBe(
      'Total bruto de 09/03/2026 a 15/03/2026: R$ 1.234,56.',
    );
    const log = await db.admin.query(
      'SELECT operador, origem, resultado FROM consultas_vendas ORDER BY id DESC LIMIT 1',
    );
    expect(log.rows[0]).toEqual({ operador: 'cli-teste', origem: 'dsl', resultado: 'respondida' });
  });

  it('prints the answer and interpretation for people without --json', async () => {
    const r = await askMerchant5(
      '--hoje',
      '2026-03-16',
      '--dsl',
      '{"metrica":"quantidade","periodo":"semana_passada","agrupar_por":"modalidade"}',
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('• crédito à vista: 1 venda');
    expect(r.out).toContain('Considerei vendas aprovadas de 09/03/2026 a 15/03/2026');
  });

  it('prints only esclarecimento for a clarification', async () => {
    const r = await askMerchant5(
      '--dsl',
      '{"pergunta_esclarecimento":"De qual período você quer saber?"}',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ esclarecimento: 'De qual período você quer saber?' });
  });

  it('refuses invalid DSL, unknown merchants and long periods with pt-BR messages', async () => {
    const bad = await askMerchant5('--dsl', '{"metrica":"lucro","periodo":"hoje"}');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^balcao: Consulta inválida: metrica:/);

    const extra = await askMerchant5(
      '--dsl',
      '{"metrica":"quantidade","periodo":"hoje","merchant_id":6}',
      '--json',
    );
    expect(extra.code).toBe(2);
    expect(JSON.parse(extra.out)).toEqual({
      erro: expect.stringMatching(/Propriedades não permitidas: merchant_id/),
    });

    const unknown = await run([
      'ask',
      '--merchant',
      '404',
      '--dsl',
      '{"metrica":"quantidade","periodo":"hoje"}',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('balcao: Lojista 404 não encontrado.');

    const long = await askMerchant5(
      '--dsl',
      '{"metrica":"quantidade","data_inicio":"2025-01-01","data_fim":"2026-03-01"}',
    );
    expect(long.code).toBe(2);
    expect(long.err).toMatch(/O período tem 425 dias; o máximo é 366 dias/);

    const notJson = await run(['ask', '--merchant', '5', '--dsl', '{metrica:']);
    expect(notJson.code).toBe(2);
    expect(notJson.err).toMatch(/não é um JSON válido/);

    const nothing = await run(['ask', '--merchant', '5']);
    expect(nothing.code).toBe(2);
    expect(nothing.err).toMatch(/Informe a pergunta/);

    const badDate = await run(['ask', '--merchant', '5', '--hoje', '2026-02-30', 'quanto vendi?']);
    expect(badDate.code).toBe(2);
    expect(badDate.err).toMatch(/data real/);
  });
});
