/**
 * #38.4 the data subject's rights on real PostgreSQL, through the CLI: `balcao lgpd exportar`
 * finds the person's data in every table (with table, id and field), `balcao lgpd anonimizar`
 * lists what changes, asks [s/N], replaces it with the marker, keeps other people's data and the
 * merchant's money, and writes the audit row; a suporte login is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARCADOR_TITULAR } from '@shared/lgpd';
import { urlForRole } from '../../src-main/db/urls';
import { createPerson } from '../../src-main/people/admin';
import { cliEnv, runCli, runCliAnswering } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { insertTrail, type Trail } from '../support/lgpd-fixtures';
import { ensureMerchants } from '../support/queue-fixtures';

const NOW = new Date('2026-11-30T15:00:00Z');
const CPF = '529.982.247-25';
const SUPORTE = `lgpd_${process.pid}_ana`;
const SUPERVISOR = `lgpd_${process.pid}_sofia`;
const SENHA = 'senha-lgpd-123';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let joao: Trail;
let maria: Trail;
beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db);
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Mercadinho Sol' });
  joao = await insertTrail(db.admin, {
    merchantId: 1,
    texto: `link de R$ 150,00 pro João Silva, CPF ${CPF}, zap (11) 98765-4321`,
    nome: 'João Silva',
    documento: '52998224725',
    diasAtras: 3,
    agora: NOW,
    valorCentavos: 15000,
  });
  maria = await insertTrail(db.admin, {
    merchantId: 1,
    texto: 'cobra 80 reais da Maria Souza, CPF 111.444.777-35, maria@exemplo.com.br',
    nome: 'Maria Souza',
    documento: '11144477735',
    diasAtras: 2,
    agora: NOW,
    valorCentavos: 8000,
  });
  // A near-miss: the CPF's digits inside an order number are no CPF of João.
  await db.admin.query(
    `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, estado, resultado)
     VALUES ('teste', 'quase', 2, 'pedido 9529982247250 entregue', 'concluida', 'fila')`,
  );
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
  await createPerson(db.admin, { nome: SUPERVISOR, papel: 'supervisor', senha: SENHA });
});
afterAll(async () => {
  await db.drop();
  for (const r of [SUPORTE, SUPERVISOR]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => undefined);
  }
});

const origins = (list: { origem: { tabela: string; id: string; campo: string } }[]) =>
  list.map((x) => `${x.origem.tabela}#${x.origem.id}.${x.origem.campo}`).sort();

describe('balcao lgpd exportar / anonimizar', () => {
  it('exportar finds the person in every table, with where each piece came from', async () => {
    const r = await runCli(['lgpd', 'exportar', '--documento', '52998224725', '--json'], env);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.titular).toEqual({ tipo: 'documento', identificador: '***.982.247-**' });
    expect(origins(j.mensagens)).toEqual([`mensagens#${joao.mensagem}.texto`]);
    expect(origins(j.extracoes)).toEqual([
      `extracoes#${joao.extracao}.dados`,
      `extracoes#${joao.extracao}.texto`,
    ]);
    expect(origins(j.tentativas)).toEqual(
      expect.arrayContaining([
        `intake_tentativas#${joao.mensagem}:1.conteudo`,
        `intake_tentativas#${joao.mensagem}:1.entrada`,
      ]),
    );
    expect(origins(j.tentativas).some((o) => o.startsWith('extracao_tentativas#'))).toBe(true);
    // Our question about his charge names him without the CPF: found through his extraction.
    expect(origins(j.mensagens_saida)).toEqual([`mensagens_saida#${joao.saida}.texto`]);
    expect(j.cobrancas).toHaveLength(1);
    expect(j.cobrancas[0]).toMatchObject({
      cliente_nome: 'João Silva',
      cliente_documento: '52998224725',
      valor_centavos: 15000,
      origem: { tabela: 'cobrancas', id: String(joao.cobranca) },
    });
    expect(r.out).not.toContain('Maria');
    expect(r.out).not.toContain('pedido 9529982247250');
    // by phone (any written form) and the audit of the export
    const tel = await runCli(
      ['lgpd', 'exportar', '--telefone', '+55 11 98765-4321', '--json'],
      env,
    );
    expect(origins(JSON.parse(tel.out).mensagens)).toEqual([`mensagens#${joao.mensagem}.texto`]);
    const a = await db.admin.query(
      `SELECT detalhes FROM auditoria WHERE acao = 'lgpd_exportar' ORDER BY id`,
    );
    expect(a.rows[0].detalhes).toMatchObject({
      tipo: 'documento',
      identificador: '***.982.247-**',
    });
    expect(JSON.stringify(a.rows)).not.toContain('52998224725');
  });

  it('bad or missing identifiers are usage errors in pt-BR', async () => {
    const none = await runCli(['lgpd', 'exportar'], env);
    expect(none.code).toBe(2);
    expect(none.err).toBe(
      'balcao: Informe um (e só um) destes: o CPF/CNPJ, o telefone ou o e-mail do titular.',
    );
    const bad = await runCli(['lgpd', 'anonimizar', '--documento', '529.982.247-26'], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('não é um CPF nem um CNPJ válido');
  });

  it('a suporte login may neither export nor anonymise', async () => {
    const as = { ...env, APP_DATABASE_URL: urlForRole(db.adminUrl, SUPORTE, SENHA) };
    const r = await runCliAnswering(['lgpd', 'anonimizar', '--documento', CPF, '--sim'], as, true);
    expect(r.code).toBe(1);
    expect(r.err).toBe('balcao: Seu papel não permite isto (precisa de: supervisor).');
    const e = await runCli(['lgpd', 'exportar', '--documento', CPF], as);
    expect(e.code).toBe(1);
  });

  it('anonimizar lists, asks, and a no changes nothing', async () => {
    const r = await runCliAnswering(['lgpd', 'anonimizar', '--documento', CPF], env, false);
    expect(r.code).toBe(1);
    expect(r.asked).toHaveLength(1);
    expect(r.asked[0]).toMatch(
      /^Anonimizar \d+ campos de \*\*\*\.982\.247-\*\*\? Não há como desfazer\.$/,
    );
    expect(r.out).toContain(`mensagens #${joao.mensagem} — texto`);
    expect(r.err).toBe('balcao: Nada foi alterado.');
    const m = await db.admin.query('SELECT texto FROM mensagens WHERE id = $1', [joao.mensagem]);
    expect(m.rows[0].texto).toContain(CPF);
  });

  it("a supervisor's yes replaces the person's data everywhere, keeps everyone else's, audited", async () => {
    const as = { ...env, APP_DATABASE_URL: urlForRole(db.adminUrl, SUPERVISOR, SENHA) };
    const mariaBefore = await db.admin.query(
      `SELECT m.texto, e.texto AS e, e.dados, b.cliente_nome FROM mensagens m
         JOIN extracoes e ON e.id = m.extracao_id JOIN cobrancas b ON b.extracao_id = e.id
        WHERE m.id = $1`,
      [maria.mensagem],
    );
    const r = await runCliAnswering(['lgpd', 'anonimizar', '--documento', CPF], as, true);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\d+ campos anonimizados \(auditado\)\.$/);
    const dump = JSON.stringify(
      (
        await db.admin.query(
          `SELECT (SELECT json_agg(m) FROM mensagens m WHERE m.id = $1) AS m,
                  (SELECT json_agg(e) FROM extracoes e WHERE e.id = $2) AS e,
                  (SELECT json_agg(t) FROM extracao_tentativas t WHERE t.extracao_id = $2) AS t,
                  (SELECT json_agg(i) FROM intake_tentativas i WHERE i.mensagem = $1) AS i,
                  (SELECT json_agg(s) FROM mensagens_saida s WHERE s.id = $3) AS s,
                  (SELECT json_agg(b) FROM cobrancas b WHERE b.id = $4) AS b`,
          [joao.mensagem, joao.extracao, joao.saida, joao.cobranca],
        )
      ).rows[0],
    );
    expect(dump).not.toMatch(/529\.?982\.?247-?25|João Silva/);
    expect(dump).toContain(MARCADOR_TITULAR);
    const m = await db.admin.query('SELECT texto FROM mensagens WHERE id = $1', [joao.mensagem]);
    // The rest of the merchant's text stays.
    expect(m.rows[0].texto).toBe(
      `link de R$ 150,00 pro ${MARCADOR_TITULAR}, CPF ${MARCADOR_TITULAR}, zap (11) 98765-4321`,
    );
    const b = await db.admin.query(
      'SELECT valor_centavos, parcelas, metodo, cliente_nome, cliente_documento FROM cobrancas WHERE id = $1',
      [joao.cobranca],
    );
    expect(b.rows[0]).toEqual({
      valor_centavos: 15000,
      parcelas: 3,
      metodo: 'cartao',
      cliente_nome: MARCADOR_TITULAR,
      cliente_documento: null,
    });
    const mariaAfter = await db.admin.query(
      `SELECT m.texto, e.texto AS e, e.dados, b.cliente_nome FROM mensagens m
         JOIN extracoes e ON e.id = m.extracao_id JOIN cobrancas b ON b.extracao_id = e.id
        WHERE m.id = $1`,
      [maria.mensagem],
    );
    expect(mariaAfter.rows).toEqual(mariaBefore.rows);
    const a = await db.admin.query(
      `SELECT login, detalhes FROM auditoria WHERE acao = 'lgpd_anonimizar'`,
    );
    expect(a.rows).toHaveLength(1);
    expect(a.rows[0].login).toBe(SUPERVISOR);
    expect(a.rows[0].detalhes.identificador).toBe('***.982.247-**');
    expect(a.rows[0].detalhes.campos).toBeGreaterThan(5);
    expect(JSON.stringify(a.rows[0])).not.toContain('52998224725');
    // Nothing left: a second run says so and changes nothing.
    const again = await runCliAnswering(['lgpd', 'anonimizar', '--documento', CPF], as, true);
    expect(again.code).toBe(0);
    expect(again.asked).toHaveLength(0);
    expect(again.out).toBe('Nada a anonimizar: o Balcão não guarda dados de ***.982.247-**.');
  });
});
