import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src-main/db/pool';
import { urlForRole } from '../../src-main/db/urls';
import {
  createPerson,
  deactivatePerson,
  listPeople,
  reactivatePerson,
} from '../../src-main/people/admin';
import { reopen, takeOver } from '../../src-main/queue/supervisor';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction, queueFor } from '../support/queue-fixtures';

// Roles are cluster-wide: every login of this file carries a unique prefix and is dropped after.
const P = `t${randomBytes(3).toString('hex')}`;
const SENHA = 'senha-de-teste-123';
const SUP = `${P}_ana`;
const SUP2 = `${P}_bia`;
const FIN = `${P}_fabio`;
const SV = `${P}_sara`;

let db: TestDatabase;
const pools = new Map<string, pg.Pool>();
function as(login: string): pg.Pool {
  let p = pools.get(login);
  if (!p) {
    p = createPool(urlForRole(db.adminUrl, login, SENHA), { max: 2 });
    pools.set(login, p);
  }
  return p;
}
function queue(login: string) {
  // The free-text operator setting says someone else: the database ignores it for people.
  return queueFor(as(login), { operator: 'Outra Pessoa' });
}
async function deny(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  const e = (await p.then(
    () => null,
    (x: unknown) => x,
  )) as { code?: string; message: string } | null;
  expect(e, 'deveria ter sido recusado').not.toBeNull();
  return e!;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central' });
  await createPerson(db.admin, { nome: SUP, papel: 'suporte', senha: SENHA });
  await createPerson(db.admin, { nome: SUP2, papel: 'suporte', senha: SENHA });
  await createPerson(db.admin, { nome: FIN, papel: 'financeiro', senha: SENHA });
  await createPerson(db.admin, { nome: SV, papel: 'supervisor', senha: SENHA });
});
afterAll(async () => {
  await Promise.allSettled([...pools.values()].map((p) => p.end()));
  for (const r of [SUP, SUP2, FIN, SV]) {
    await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => undefined);
  }
  await db.drop();
});

describe('group roles and people', () => {
  it('lists the people with their role; refuses a duplicate and a reserved name', async () => {
    const mine = (await listPeople(db.admin)).filter((p) => p.nome.startsWith(P));
    expect(mine).toEqual([
      { nome: SUP, papeis: ['suporte'], ativo: true },
      { nome: SUP2, papeis: ['suporte'], ativo: true },
      { nome: FIN, papeis: ['financeiro'], ativo: true },
      { nome: SV, papeis: ['supervisor'], ativo: true },
    ]);
    expect(
      (await deny(createPerson(db.admin, { nome: SUP, papel: 'suporte', senha: SENHA }))).message,
    ).toBe(`Já existe um login "${SUP}" neste servidor PostgreSQL.`);
    expect(
      (
        await deny(
          createPerson(db.admin, { nome: 'balcao_app', papel: 'supervisor', senha: SENHA }),
        )
      ).message,
    ).toBe('O nome "balcao_app" é reservado. Escolha outro.');
    // The password went as a SCRAM verifier: the login works with it, not with another.
    const r = await as(SUP).query<{ u: string; p: string[] }>(
      'SELECT session_user::text AS u, balcao_meus_papeis() AS p',
    );
    expect(r.rows[0]).toEqual({ u: SUP, p: ['suporte'] });
    const wrong = createPool(urlForRole(db.adminUrl, SUP, 'errada-123'), { max: 1 });
    expect((await deny(wrong.query('SELECT 1'))).code).toBe('28P01');
    await wrong.end();
  });

  it('support reads and works the queue but cannot read sales nor write the sales log', async () => {
    expect((await as(SUP).query('SELECT count(*) FROM extracoes')).rowCount).toBe(1);
    for (const sql of [
      'SELECT count(*) FROM transacoes',
      'SELECT count(*) FROM vendas_ia',
      'SELECT count(*) FROM vendas_aprovadas',
      'SELECT count(*) FROM perguntas_registradas',
      "INSERT INTO consultas_vendas (merchant_id, operador, origem, resultado, duracao_ms) VALUES (1, 'x', 'pergunta', 'erro', 1)",
    ]) {
      expect((await deny(as(SUP).query(sql))).code, sql).toBe('42501');
    }
  });

  it('finance cannot claim, confirm or discard; its question log entries carry its login', async () => {
    const id = await insertExtraction(db.admin);
    expect((await deny(queue(FIN).claim(id))).code).toBe('acesso_negado');
    expect(
      (
        await deny(
          as(FIN).query(
            `UPDATE extracoes SET fila_estado = 'descartada', descarte_motivo = 'teste' WHERE id = $1`,
            [id],
          ),
        )
      ).code,
    ).toBe('42501');
    expect(
      (
        await deny(
          as(FIN).query(
            `INSERT INTO cobrancas (extracao_id, merchant_id, valor_centavos, parcelas, metodo, cliente_nome, vencimento, criada_por)
             VALUES ($1, 1, 15000, 1, 'pix', 'X', '2026-12-04', 'x')`,
            [id],
          ),
        )
      ).code,
    ).toBe('42501');
    await as(FIN).query(
      `INSERT INTO consultas_vendas (merchant_id, operador, origem, pergunta, resultado, duracao_ms, login)
       VALUES (1, $1, 'pergunta', $2, 'erro', 1, $1)`,
      [SV, `${P} quanto vendi?`],
    );
    const r = await db.admin.query(
      'SELECT operador, login FROM consultas_vendas WHERE pergunta = $1',
      [`${P} quanto vendi?`],
    );
    expect(r.rows).toEqual([{ operador: FIN, login: FIN }]);
  });
});

describe('identity from the session', () => {
  it('nobody writes an audit entry in another name, not even with direct SQL', async () => {
    const id = await insertExtraction(db.admin);
    const r = await as(SUP).query<{ operador: string; login: string }>(
      `INSERT INTO auditoria (operador, acao, extracao_id, login) VALUES ($1, 'assumiu', $2, $1)
       RETURNING operador, login`,
      [SV, id],
    );
    expect(r.rows[0]).toEqual({ operador: SUP, login: SUP });
    expect((await deny(as(SUP).query('UPDATE auditoria SET operador = $1', [SV]))).code).toBe(
      '42501',
    );
    expect((await deny(as(SV).query('DELETE FROM auditoria'))).code).toBe('42501');
  });

  it('a new item written with direct SQL cannot be held or resolved in another name', async () => {
    const r = await as(SUP).query<Record<string, string | null>>(
      `INSERT INTO extracoes (merchant_id, texto, status, fila_estado, resolvida_por,
                             resolvida_por_login, lease_operador, lease_login, lease_token,
                             lease_expira_em)
       VALUES (1, 'forjado', 'completo', 'resolvida', $1, $1, $1, $1, gen_random_uuid(),
               now() + interval '1 hour')
       RETURNING resolvida_por, resolvida_por_login, lease_operador, lease_login`,
      [SUP2],
    );
    expect(r.rows[0]).toEqual({
      resolvida_por: SUP,
      resolvida_por_login: SUP,
      lease_operador: SUP,
      lease_login: SUP,
    });
    const open = await as(SUP).query<Record<string, string | null>>(
      `INSERT INTO extracoes (merchant_id, texto, status, resolvida_por, resolvida_por_login,
                             lease_operador, lease_login)
       VALUES (1, 'forjado', 'completo', $1, $1, $1, $1)
       RETURNING resolvida_por, resolvida_por_login, lease_operador, lease_login`,
      [SUP2],
    );
    expect(open.rows[0]).toEqual({
      resolvida_por: null,
      resolvida_por_login: null,
      lease_operador: null,
      lease_login: null,
    });
  });

  it('the queue records the login, whatever the operator setting says', async () => {
    const id = await insertExtraction(db.admin);
    const q = queue(SUP);
    const c = await q.claim(id);
    if (!c.claimed) throw new Error(c.mensagem);
    const done = await q.confirm({ id, token: c.token, dados: dados() });
    expect(done.cobranca.criadaPor).toBe(SUP);
    const row = await db.admin.query(
      'SELECT resolvida_por, resolvida_por_login FROM extracoes WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ resolvida_por: SUP, resolvida_por_login: SUP });
    const charge = await db.admin.query(
      'SELECT criada_por_login FROM cobrancas WHERE extracao_id = $1',
      [id],
    );
    expect(charge.rows[0]).toEqual({ criada_por_login: SUP });
    const audit = await db.admin.query(
      'SELECT operador, login, acao FROM auditoria WHERE extracao_id = $1 ORDER BY id',
      [id],
    );
    expect(audit.rows).toEqual([
      { operador: SUP, login: SUP, acao: 'assumiu' },
      { operador: SUP, login: SUP, acao: 'cobranca_criada' },
    ]);
  });

  it("a lease belongs to the login that claimed it: another login's call with its token is refused", async () => {
    const id = await insertExtraction(db.admin);
    const c = await queue(SUP).claim(id);
    if (!c.claimed) throw new Error(c.mensagem);
    const msg = `Esta reserva pertence a ${SUP}. Só quem assumiu o item pode usá-la.`;
    const other = queue(SUP2);
    expect((await deny(other.renew(id, c.token))).message).toBe(msg);
    expect((await deny(other.save({ id, token: c.token, dados: dados() }))).message).toBe(msg);
    expect((await deny(other.confirm({ id, token: c.token, dados: dados() }))).message).toBe(msg);
    expect((await deny(other.discard({ id, token: c.token, motivo: 'teste' }))).message).toBe(msg);
    expect(await other.release(id, c.token)).toEqual({ liberado: false });
    // Direct SQL as the other login: refused by the database, in pt-BR.
    const e = await deny(
      as(SUP2).query(
        `UPDATE extracoes SET dados_revisados = '{}' WHERE id = $1 AND lease_token = $2`,
        [id, c.token],
      ),
    );
    expect(e.message).toBe(
      `Este item está reservado para ${SUP}: só quem o assumiu pode agir sobre ele.`,
    );
    // Nor can support take it over.
    expect((await deny(takeOver(as(SUP2), { id, operador: SUP2 }))).message).toBe(
      `Este item está reservado para ${SUP}: só quem o assumiu pode agir sobre ele.`,
    );
    const still = await db.admin.query('SELECT lease_login FROM extracoes WHERE id = $1', [id]);
    expect(still.rows[0]).toEqual({ lease_login: SUP });
    // The holder keeps working; claiming again gives the holder the same lease back, and
    // another login (whatever its operator setting says) still sees who has it.
    await queue(SUP).renew(id, c.token);
    const again = await queue(SUP).claim(id);
    expect(again).toMatchObject({ claimed: true, token: c.token });
    expect(await other.claim(id)).toMatchObject({ claimed: false, emAnalisePor: SUP });
    const claims = await db.admin.query(
      "SELECT count(*)::int AS n FROM auditoria WHERE extracao_id = $1 AND acao = 'assumiu'",
      [id],
    );
    expect(claims.rows[0]).toEqual({ n: 1 });
  });

  it("a supervisor's takeover and reopen are audited with both names", async () => {
    const id = await insertExtraction(db.admin);
    const c = await queue(SUP).claim(id);
    if (!c.claimed) throw new Error(c.mensagem);
    const t = await takeOver(as(SV), { id, operador: 'qualquer' });
    // The old token is dead for its former holder.
    expect((await deny(queue(SUP).save({ id, token: c.token, dados: dados() }))).code).toBe(
      'conflito',
    );
    await queue(SV).discard({ id, token: t.token, motivo: 'duplicada' });
    // Support cannot undo it, not even with direct SQL.
    expect((await deny(reopen(as(SUP), { id, operador: SUP }))).message).toBe(
      'Só um supervisor pode reabrir um item que já saiu da fila.',
    );
    await reopen(as(SV), { id, operador: 'qualquer' });
    const audit = await db.admin.query(
      `SELECT operador, login, acao, detalhes->>'de' AS de, detalhes->>'descartada_por' AS descartada_por
         FROM auditoria WHERE extracao_id = $1 ORDER BY id`,
      [id],
    );
    expect(audit.rows).toEqual([
      { operador: SUP, login: SUP, acao: 'assumiu', de: null, descartada_por: null },
      { operador: SV, login: SV, acao: 'assumiu_de', de: SUP, descartada_por: null },
      { operador: SV, login: SV, acao: 'descartada', de: null, descartada_por: null },
      { operador: SV, login: SV, acao: 'reaberta', de: null, descartada_por: SV },
    ]);
    const row = await db.admin.query(
      'SELECT fila_estado, lease_login, resolvida_por_login FROM extracoes WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({
      fila_estado: 'aberta',
      lease_login: null,
      resolvida_por_login: null,
    });
    // A resolved item stays resolved.
    const id2 = await insertExtraction(db.admin);
    const c2 = await queue(SV).claim(id2);
    if (!c2.claimed) throw new Error(c2.mensagem);
    await queue(SV).confirm({ id: id2, token: c2.token, dados: dados() });
    expect((await deny(reopen(as(SV), { id: id2, operador: SV }))).code).toBe('conflito');
  });
});

describe('deactivation', () => {
  it('cuts the login off on its next call and frees what it held', async () => {
    const id = await insertExtraction(db.admin);
    const c = await queue(SUP2).claim(id);
    if (!c.claimed) throw new Error(c.mensagem);
    const d = await deactivatePerson(db.admin, SUP2);
    expect(d.pessoa).toEqual({ nome: SUP2, papeis: ['suporte'], ativo: false });
    expect(d.itensLiberados).toBe(1);
    expect(d.sessoesEncerradas).toBeGreaterThanOrEqual(1);
    const e = await deny(as(SUP2).query('SELECT 1'));
    expect(['28000', '57P01']).toContain(e.code);
    const again = await deny(as(SUP2).query('SELECT 1'));
    expect(again.code).toBe('28000');
    const row = await db.admin.query('SELECT lease_login FROM extracoes WHERE id = $1', [id]);
    expect(row.rows[0]).toEqual({ lease_login: null });
    await reactivatePerson(db.admin, SUP2);
    expect((await as(SUP2).query('SELECT 1 AS ok')).rows[0]).toEqual({ ok: 1 });
  });
});
