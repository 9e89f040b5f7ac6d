/**
 * #37 — `balcao lojistas contatos adicionar|remover|listar`: a merchant's WhatsApp numbers in
 * E.164, one number → one merchant (also across the Brazilian ninth-digit forms), audited;
 * pt-BR errors; a support login may list but not change them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src-main/people/admin';
import { urlForRole } from '../../src-main/db/urls';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { ensureMerchants } from '../support/queue-fixtures';

let db: TestDatabase;
const SENHA = 'senha-de-teste-123';
const SUPORTE = `wa_cont_${process.pid}_ana`;
const OPERADOR = 'Carla (terminal)';

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Loja do Zé' });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
});
afterAll(async () => {
  await db.admin.query(`DROP ROLE IF EXISTS ${SUPORTE}`).catch(() => undefined);
  await db.drop();
});

const contatos = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(['lojistas', 'contatos', ...args], cliEnv(db, { BALCAO_OPERATOR: OPERADOR, ...env }));

const rows = async () =>
  (
    await db.admin.query<{ telefone: string; merchant_id: number }>(
      'SELECT telefone, merchant_id::int AS merchant_id FROM lojistas_contatos ORDER BY telefone',
    )
  ).rows;

describe('balcao lojistas contatos', () => {
  it('adds a number in E.164 (typed with spaces and dashes), lists it, audits who did it', async () => {
    const r = await contatos([
      'adicionar',
      '--merchant',
      '1',
      '--telefone',
      '+55 (11) 98765-4321',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      telefone: '+5511987654321',
      merchant_id: 1,
      lojista: 'Padaria Central',
      criado: true,
      criado_por: OPERADOR,
    });
    const again = await contatos(['adicionar', '--merchant', '1', '--telefone', '+5511987654321']);
    expect(again.code).toBe(0);
    expect(again.out).toContain('nada mudou');
    const list = await contatos(['listar', '--merchant', '1', '--json']);
    expect(JSON.parse(list.out).contatos).toEqual([
      expect.objectContaining({ telefone: '+5511987654321', merchant_id: 1 }),
    ]);
    const audit = await db.admin.query<{ operador: string; depois: unknown }>(
      `SELECT operador, depois FROM auditoria WHERE acao = 'contato_whatsapp_adicionado'`,
    );
    expect(audit.rows).toEqual([
      { operador: OPERADOR, depois: { telefone: '+5511987654321', merchant_id: 1 } },
    ]);
  });

  it('refuses a number of another merchant — also in its form without the ninth digit', async () => {
    for (const tel of ['+5511987654321', '+551187654321']) {
      const r = await contatos(['adicionar', '--merchant', '2', '--telefone', tel, '--json']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.out).erro).toBe(
        `O telefone ${tel} já está cadastrado para o lojista #1 (Padaria Central); remova-o de lá antes.`,
      );
    }
    expect(await rows()).toEqual([{ telefone: '+5511987654321', merchant_id: 1 }]);
  });

  it('refuses invalid numbers and unknown merchants in pt-BR; nothing written', async () => {
    const semMais = await contatos(['adicionar', '--merchant', '2', '--telefone', '11987654321']);
    expect(semMais.code).toBe(2);
    expect(semMais.err).toContain('Use o formato E.164, com + e o código do país');
    const letras = await contatos(['adicionar', '--merchant', '2', '--telefone', '+55 11 9abc']);
    expect(letras.err).toContain('Só dígitos depois do +');
    const curto = await contatos(['adicionar', '--merchant', '2', '--telefone', '+55119']);
    expect(curto.err).toContain('Telefone');
    const ninguem = await contatos([
      'adicionar',
      '--merchant',
      '404',
      '--telefone',
      '+5521988887777',
    ]);
    expect(ninguem.code).toBe(1);
    expect(ninguem.err).toContain('Lojista 404 não encontrado.');
    const semTelefone = await contatos(['adicionar', '--merchant', '2']);
    expect(semTelefone.code).toBe(2);
    expect(await rows()).toEqual([{ telefone: '+5511987654321', merchant_id: 1 }]);
  });

  it('a support login lists but may not add or remove; removal is audited', async () => {
    const env = { APP_DATABASE_URL: urlForRole(db.adminUrl, SUPORTE, SENHA) };
    const list = await contatos(['listar', '--json'], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out).contatos).toHaveLength(1);
    const add = await contatos(
      ['adicionar', '--merchant', '2', '--telefone', '+5521988887777'],
      env,
    );
    expect(add.code).toBe(1);
    expect(add.err).toContain('precisa de: supervisor');
    const rm = await contatos(['remover', '--merchant', '1', '--telefone', '+5511987654321'], env);
    expect(rm.code).toBe(1);

    const notHers = await contatos(['remover', '--merchant', '2', '--telefone', '+5511987654321']);
    expect(notHers.code).toBe(1);
    expect(notHers.err).toContain('não está cadastrado para o lojista #2 (Loja do Zé)');
    const ok = await contatos(['remover', '--merchant', '1', '--telefone', '+5511987654321']);
    expect(ok.code).toBe(0);
    expect(ok.out).toBe('Telefone +5511987654321 removido do lojista #1.');
    expect(await rows()).toEqual([]);
    const audit = await db.admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auditoria WHERE acao = 'contato_whatsapp_removido'`,
    );
    expect(audit.rows[0]!.n).toBe(1);
    const empty = await contatos(['listar', '--merchant', '1']);
    expect(empty.out).toBe('O lojista #1 não tem número de WhatsApp cadastrado.');
  });
});
