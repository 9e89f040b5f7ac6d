/**
 * `balcao usuarios criar|listar|desativar|reativar` on real PostgreSQL: the login really signs in
 * with the password read from standard input (never from an argument), the list shows the role
 * and state, a deactivated login is refused at the next connection.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src-main/db/pool';
import { urlForRole } from '../../src-main/db/urls';
import { cliEnv, runCli } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';

const ROOT = resolve(__dirname, '../..');
const P = `u${randomBytes(3).toString('hex')}`;
const ANA = `${P}_ana`;
const CAIO = `${P}_caio`;
let db: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  db = await createTestDatabase();
  env = cliEnv(db);
});
afterAll(async () => {
  for (const r of [ANA, CAIO]) await db.admin.query(`DROP ROLE IF EXISTS ${r}`).catch(() => 0);
  await db.drop();
});

async function run(args: string[], stdin = '') {
  const prompts: string[] = [];
  const readSecret = async (prompt: string) => {
    prompts.push(prompt);
    return stdin.split('\n')[0] ?? '';
  };
  return { ...(await runCli(args, env, { readSecret })), prompts };
}

async function signsIn(login: string, senha: string): Promise<string> {
  const p = createPool(urlForRole(db.adminUrl, login, senha), { max: 1 });
  try {
    const r = await p.query<{ u: string }>('SELECT session_user::text AS u');
    return r.rows[0]!.u;
  } catch (e) {
    return (e as { code?: string }).code ?? 'erro';
  } finally {
    await p.end();
  }
}

describe('balcao usuarios', () => {
  it('criar reads the password (not from an argument), listar shows it, the login works', async () => {
    const r = await run(['usuarios', 'criar', ANA, '--papel', 'suporte'], 'senha-da-ana-1\n');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toBe(
      `Login ${ANA} criado com o papel suporte. A pessoa entra no Balcão com esse usuário e a senha informada.`,
    );
    expect(r.prompts).toEqual([`Senha para ${ANA}: `]);
    expect(await signsIn(ANA, 'senha-da-ana-1')).toBe(ANA);
    expect(await signsIn(ANA, 'outra-senha')).toBe('28P01');

    const arg = await run(['usuarios', 'criar', CAIO, '--papel', 'financeiro', '--senha', 'x']);
    expect(arg.code).toBe(2);
    expect(arg.err).toContain('a senha nunca é aceita como argumento');
    const bad = await run(['usuarios', 'criar', CAIO, '--papel', 'gerente'], 'senha-boa-123\n');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('valor inválido para --papel');
    const short = await run(['usuarios', 'criar', CAIO, '--papel', 'financeiro'], 'curta\n');
    expect(short).toMatchObject({
      code: 2,
      err: 'balcao: A senha precisa ter pelo menos 8 caracteres.',
    });
    const dup = await run(['usuarios', 'criar', ANA, '--papel', 'suporte'], 'senha-da-ana-1\n');
    expect(dup).toMatchObject({
      code: 1,
      err: `balcao: Já existe um login "${ANA}" neste servidor PostgreSQL.`,
    });

    const list = await run(['usuarios', 'listar', '--json']);
    expect(list.code).toBe(0);
    const mine = (JSON.parse(list.out) as { nome: string }[]).filter((p) => p.nome.startsWith(P));
    expect(mine).toEqual([{ nome: ANA, papeis: ['suporte'], ativo: true }]);
    const text = await run(['usuarios', 'listar']);
    expect(text.out).toMatch(/^Login\s+Papel\s+Situação$/m);
    expect(text.out).toMatch(new RegExp(`^${ANA}\\s+suporte\\s+ativo$`, 'm'));
  });

  it('desativar refuses the next sign-in; reativar lets it back; unknown names are refused', async () => {
    const off = await run(['usuarios', 'desativar', ANA]);
    expect(off).toMatchObject({ code: 0, err: '' });
    expect(off.out).toMatch(
      new RegExp(
        `^Login ${ANA} desativado: \\d+ sessão\\(ões\\) encerrada\\(s\\), 0 item\\(ns\\) devolvido\\(s\\) à fila\\.$`,
      ),
    );
    expect(await signsIn(ANA, 'senha-da-ana-1')).toBe('28000');
    const listed = JSON.parse((await run(['usuarios', 'listar', '--json'])).out) as {
      nome: string;
      ativo: boolean;
    }[];
    expect(listed.find((p) => p.nome === ANA)?.ativo).toBe(false);
    expect(await run(['usuarios', 'reativar', ANA])).toMatchObject({
      code: 0,
      out: `Login ${ANA} reativado.`,
    });
    expect(await signsIn(ANA, 'senha-da-ana-1')).toBe(ANA);
    const none = await run(['usuarios', 'desativar', 'balcao_app']);
    expect(none.code).toBe(1);
    expect(none.err).toBe(
      'balcao: Não há pessoa "balcao_app" no Balcão (logins criados com "balcao usuarios criar").',
    );
  });

  it('real subprocess: the password comes from standard input (--senha-stdin)', async () => {
    const child = spawn(
      process.execPath,
      [
        'src-main/cli/bin.mjs',
        'usuarios',
        'criar',
        CAIO,
        '--papel',
        'financeiro',
        '--senha-stdin',
        '--json',
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdin.end('senha-do-caio-9\n');
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim())).toEqual({ nome: CAIO, papeis: ['financeiro'], ativo: true });
    expect(await signsIn(CAIO, 'senha-do-caio-9')).toBe(CAIO);
  }, 60_000);
});
