/**
 * #41.1 — the review queue from a terminal: `balcao fila listar|mostrar|confirmar|descartar|
 * perguntar|reabrir`, through the window's handlers (leases, validation, audit) and permissions,
 * on real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../src-main/people/admin';
import { urlForRole } from '../../src-main/db/urls';
import { DISCARD_REASONS } from '../../src-shared/contract/review-items';
import { cliEnv, runCliAnswering } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
const SENHA = 'senha-de-teste-123';
const SUPORTE = `cli_fila_${process.pid}_ana`;
const OPERADOR = 'Carla (terminal)';
const FUTURE = '2027-01-15';

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Loja do Zé' });
  await createPerson(db.admin, { nome: SUPORTE, papel: 'suporte', senha: SENHA });
});
afterAll(async () => {
  await db.admin.query(`DROP ROLE IF EXISTS ${SUPORTE}`).catch(() => undefined);
  await db.drop();
});

function fila(
  args: string[],
  opts: { answer?: boolean | null; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; out: string; err: string; asked: string[] }> {
  const env = cliEnv(db, {
    BALCAO_OPERATOR: OPERADOR,
    BALCAO_TIME_ZONE: 'America/Sao_Paulo',
    ...opts.env,
  });
  return runCliAnswering(['fila', ...args], env, opts.answer);
}

const item = (over: Parameters<typeof insertExtraction>[1] = {}) =>
  insertExtraction(db.admin, {
    merchantId: 1,
    texto: 'manda um link de 150 reais pro João Silva no cartão em 3x',
    dados: dados({ vencimento: FUTURE }),
    status: 'completo',
    ...over,
  });

const row = async (id: number) =>
  (
    await db.admin.query<{ fila_estado: string; lease_token: string | null }>(
      'SELECT fila_estado, lease_token FROM extracoes WHERE id = $1',
      [id],
    )
  ).rows[0]!;
const charges = async (id: number) =>
  (
    await db.admin.query<{ valor_centavos: string; criada_por: string }>(
      'SELECT valor_centavos, criada_por FROM cobrancas WHERE extracao_id = $1',
      [id],
    )
  ).rows;

describe('balcao fila (#41.1)', () => {
  it('listar: open items oldest first, as JSON and as a table', async () => {
    const older = await item({ criadaEm: new Date(Date.now() - 3 * 3_600_000).toISOString() });
    const newer = await item({
      merchantId: 2,
      criadaEm: new Date(Date.now() - 5 * 60_000).toISOString(),
    });
    const j = await fila(['listar', '--json']);
    expect(j.code).toBe(0);
    const ids = (JSON.parse(j.out) as { pedidos: { id: number }[] }).pedidos.map((p) => p.id);
    expect(ids.indexOf(older)).toBeLessThan(ids.indexOf(newer));
    expect(JSON.parse(j.out).pedidos[ids.indexOf(newer)]).toMatchObject({
      lojista: 'Loja do Zé',
      merchant_id: 2,
      fila_estado: 'aberta',
    });
    const t = await fila(['listar']);
    expect(t.out).toMatch(/^Pedido\s+Situação\s+Idade\s+Lojista\s+Motivo/);
    expect(t.out).toContain(`#${older}`);
    expect(t.out).toContain('Loja do Zé (#2)');
    expect(t.out).toMatch(/3 h/);
  });

  it('mostrar: the message and the charge as people read it; an unknown item is refused', async () => {
    const id = await item();
    const r = await fila(['mostrar', String(id)]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Pedido #${id}`);
    expect(r.out).toContain('lojista Padaria Central (#1)');
    expect(r.out).toContain(
      'Cobrança: R$\u00a0150,00 em 3x de R$\u00a050,00 no cartão · João Silva',
    );
    const none = await fila(['mostrar', '99999999']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/^balcao: .*não encontrado/i);
  });

  it('confirmar asks with the formatted amount and the merchant; no terminal or "no" creates nothing and frees the item', async () => {
    const id = await item();
    const noTty = await fila(['confirmar', String(id)], { answer: null });
    expect(noTty.code).toBe(2);
    expect(noTty.err).toContain('repita com --sim');
    const no = await fila(['confirmar', String(id)], { answer: false });
    expect(no.code).toBe(1);
    expect(no.asked).toEqual([
      'Criar a cobrança de R$\u00a0150,00 em 3x de R$\u00a050,00 no cartão · João Silva · vence sex., 15/01/2027 — lojista Padaria Central (#1)?',
    ]);
    expect(no.err).toContain('Nada foi criado.');
    expect(await charges(id)).toEqual([]);
    expect(await row(id)).toEqual({ fila_estado: 'aberta', lease_token: null });
  });

  it('confirmar --sim creates the charge once, audited with the operator; a second confirm creates nothing', async () => {
    const id = await item();
    const r = await fila(['confirmar', String(id), '--sim', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ pedido: id, criada: true });
    expect(await charges(id)).toEqual([{ valor_centavos: 15000, criada_por: OPERADOR }]);
    expect((await row(id)).fila_estado).toBe('resolvida');
    const audit = await db.admin.query(
      `SELECT operador FROM auditoria WHERE extracao_id = $1 AND acao LIKE '%cobranca%'`,
      [id],
    );
    expect(audit.rows.map((a) => a.operador)).toContain(OPERADOR);
    const again = await fila(['confirmar', String(id), '--sim']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^balcao: /);
    expect(again.err).not.toContain('Erro inesperado');
    expect(await charges(id)).toHaveLength(1);
  });

  it('an item another person holds is refused by its lease, and stays theirs', async () => {
    const id = await item();
    await db.admin.query(
      `UPDATE extracoes SET lease_operador = 'Bruno', lease_token = gen_random_uuid(),
              lease_expira_em = now() + interval '5 minutes' WHERE id = $1`,
      [id],
    );
    const r = await fila(['confirmar', String(id), '--sim']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('Bruno');
    expect(await charges(id)).toEqual([]);
    expect((await row(id)).lease_token).not.toBeNull();
  });

  it("confirmar runs the form's validators: a past due date is refused before anyone is asked", async () => {
    const id = await item({ dados: dados({ vencimento: '2020-01-10' }) });
    const r = await fila(['confirmar', String(id)], { answer: true });
    expect(r.code).toBe(2);
    expect(r.asked).toEqual([]);
    expect(r.err).toMatch(/não passa nas regras: .*vencimento/i);
    expect(await charges(id)).toEqual([]);
  });

  it('descartar asks, discards with the reason; reabrir brings it back; a bad reason is a usage error', async () => {
    const id = await item();
    const bad = await fila(['descartar', String(id), '--motivo', 'preguica', '--sim']);
    expect(bad.code).toBe(2);
    expect((await row(id)).fila_estado).toBe('aberta');
    const d = await fila(['descartar', String(id), '--motivo', 'teste'], { answer: true });
    expect(d.code).toBe(0);
    expect(d.asked[0]).toContain('Descartar o pedido');
    expect(d.out).toBe(`Pedido #${id} descartado: Mensagem de teste.`);
    expect((await row(id)).fila_estado).toBe('descartada');
    const back = await fila(['reabrir', String(id), '--motivo', 'descartado por engano', '--json']);
    expect(back.code).toBe(0);
    expect(JSON.parse(back.out)).toMatchObject({ pedido: id, fila_estado: 'aberta' });
  });

  it('perguntar asks the merchant for what is missing', async () => {
    const id = await item({
      status: 'incompleto',
      dados: dados({ valor_centavos: null, vencimento: FUTURE }),
    });
    const r = await fila(['perguntar', String(id), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).pergunta).toMatch(/valor/i);
    const after = await fila(['mostrar', String(id), '--json']);
    expect(JSON.parse(after.out).situacao).toBe('aguardando_lojista');
  });

  it("a person's login works with their role: suporte confirms (audited as the login) but may not reopen", async () => {
    const env = { APP_DATABASE_URL: urlForRole(db.adminUrl, SUPORTE, SENHA) };
    const id = await item();
    const r = await fila(['confirmar', String(id), '--sim'], { env });
    expect(r.code).toBe(0);
    expect((await charges(id))[0]!.criada_por).toBe(SUPORTE);
    const discarded = await item();
    expect(
      (await fila(['descartar', String(discarded), '--motivo', 'duplicada', '--sim'])).code,
    ).toBe(0);
    const reopen = await fila(['reabrir', String(discarded)], { env });
    expect(reopen.code).toBe(1);
    expect(reopen.err).toBe('balcao: Só um supervisor pode fazer isso.');
    expect((await row(discarded)).fila_estado).toBe('descartada');
  });

  it("the CLI's discard reasons are the contract's", async () => {
    const help = await fila(['descartar', '--help']);
    for (const m of DISCARD_REASONS) expect(help.out).toContain(m);
  });
});
