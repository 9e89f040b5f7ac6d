import { Option, type Command } from 'commander';
import { PAPEIS, type Papel } from '../../db/roles';
import type { Pessoa } from '../../people/admin';
import type { CliContext } from '../context';
import { CliError } from '../io';

const NO_PASSWORD_ARG =
  'Por segurança a senha nunca é aceita como argumento (ficaria no histórico do shell e na lista de processos). Digite-a quando for pedida ou envie-a pela entrada padrão (--senha-stdin).';

function situacao(p: Pessoa): string {
  return p.ativo ? 'ativo' : 'desativado';
}

export function formatPeople(people: Pessoa[]): string {
  if (!people.length) {
    return 'Nenhuma pessoa cadastrada. Crie com: balcao usuarios criar NOME --papel suporte|financeiro|supervisor';
  }
  const w = Math.max(5, ...people.map((p) => p.nome.length));
  const lines = [`${'Login'.padEnd(w)}  ${'Papel'.padEnd(12)}  Situação`];
  for (const p of people) {
    lines.push(`${p.nome.padEnd(w)}  ${p.papeis.join(', ').padEnd(12)}  ${situacao(p)}`);
  }
  return lines.join('\n');
}

async function readPassword(c: CliContext, nome: string, fromStdin: boolean): Promise<string> {
  if (!c.io.readSecret) throw new CliError('Não há como ler a senha neste ambiente.');
  let senha: string;
  try {
    senha = await c.io.readSecret(`Senha para ${nome}: `, fromStdin);
    const typed = !fromStdin && process.stdin.isTTY;
    if (typed) {
      const again = await c.io.readSecret('Repita a senha: ', false);
      if (again !== senha) throw new CliError('As senhas não conferem. Nada foi criado.', 1);
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError('Leitura da senha cancelada. Nada foi criado.', 1);
  }
  if (!senha) throw new CliError('Senha vazia. Nada foi criado.', 2);
  return senha;
}

/** `balcao usuarios …`: people's logins on a team deployment (admin connection: DATABASE_URL). */
export function registerUsuarios(program: Command, ctx: () => CliContext): void {
  const usuarios = program
    .command('usuarios')
    .description(
      'pessoas do Balcão (um login do PostgreSQL por pessoa): criar, listar, desativar, reativar',
    );

  usuarios
    .command('criar')
    .description('cria o login de uma pessoa com um papel; a senha é digitada ou lida da entrada')
    .argument('<nome>', 'login da pessoa (letras minúsculas, números, ".", "_" ou "-")')
    .addOption(
      new Option('--papel <papel>', 'o que a pessoa pode fazer')
        .choices(PAPEIS as unknown as string[])
        .makeOptionMandatory(),
    )
    .option('--senha-stdin', 'lê a senha da primeira linha da entrada padrão')
    .addOption(new Option('--senha <senha>').hideHelp())
    .option('--json', 'saída em JSON')
    .action(
      async (
        nome: string,
        opts: { papel: Papel; senhaStdin?: boolean; senha?: string; json?: boolean },
      ) => {
        const { createPerson } = await import('../../people/admin');
        if (opts.senha !== undefined) throw new CliError(NO_PASSWORD_ARG, 2);
        const c = ctx();
        const senha = await readPassword(c, nome, Boolean(opts.senhaStdin));
        const dbs = await c.databases();
        const p = await createPerson(dbs.admin, { nome, papel: opts.papel, senha });
        c.io.out(
          opts.json
            ? JSON.stringify(p)
            : `Login ${p.nome} criado com o papel ${opts.papel}. A pessoa entra no Balcão com esse usuário e a senha informada.`,
        );
      },
    );

  usuarios
    .command('listar')
    .description('lista as pessoas, o papel e se estão ativas')
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) => {
      const { listPeople } = await import('../../people/admin');
      const c = ctx();
      const dbs = await c.databases();
      const people = await listPeople(dbs.admin);
      c.io.out(opts.json ? JSON.stringify(people) : formatPeople(people));
    });

  usuarios
    .command('desativar')
    .description(
      'impede o login de entrar, encerra as sessões abertas e devolve à fila os itens que ele tinha',
    )
    .argument('<nome>', 'login da pessoa')
    .option('--json', 'saída em JSON')
    .action(async (nome: string, opts: { json?: boolean }) => {
      const { deactivatePerson } = await import('../../people/admin');
      const c = ctx();
      const dbs = await c.databases();
      const r = await deactivatePerson(dbs.admin, nome);
      c.io.out(
        opts.json
          ? JSON.stringify(r)
          : `Login ${nome} desativado: ${r.sessoesEncerradas} sessão(ões) encerrada(s), ${r.itensLiberados} item(ns) devolvido(s) à fila.`,
      );
    });

  usuarios
    .command('reativar')
    .description('deixa um login desativado entrar de novo')
    .argument('<nome>', 'login da pessoa')
    .option('--json', 'saída em JSON')
    .action(async (nome: string, opts: { json?: boolean }) => {
      const { reactivatePerson } = await import('../../people/admin');
      const c = ctx();
      const dbs = await c.databases();
      const p = await reactivatePerson(dbs.admin, nome);
      c.io.out(opts.json ? JSON.stringify(p) : `Login ${nome} reativado.`);
    });
}
