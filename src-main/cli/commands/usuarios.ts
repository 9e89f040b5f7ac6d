import { Option, type Command } from 'commander';
import { PAPEIS, type Papel } from '@shared/permissions';
import type { ConnectedDatabases } from '../../db/connect';
import type * as PeopleAdmin from '../../people/admin';
import type { CliContext } from '../context';
import { CliError } from '../io';

const NO_PASSWORD_ARG =
  'Por segurança a senha nunca é aceita como argumento (ficaria no histórico do shell e na lista de processos). Digite-a quando for pedida ou envie-a pela entrada padrão (--senha-stdin).';

function situacao(p: PeopleAdmin.Pessoa): string {
  return p.ativo ? 'ativo' : 'desativado';
}

export function formatPeople(people: PeopleAdmin.Pessoa[]): string {
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

type Admin = ConnectedDatabases['admin'];

/** Runs one command on the admin connection and prints its result: JSON with --json, else `text`. */
async function onAdmin<T>(
  c: CliContext,
  opts: { json?: boolean },
  run: (admin: Admin) => Promise<T>,
  text: (result: T) => string,
): Promise<void> {
  const dbs = await c.databases();
  const result = await run(dbs.admin);
  c.io.out(opts.json ? JSON.stringify(result) : text(result));
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
        await onAdmin(
          c,
          opts,
          (admin) => createPerson(admin, { nome, papel: opts.papel, senha }),
          (p) =>
            `Login ${p.nome} criado com o papel ${opts.papel}. A pessoa entra no Balcão com esse usuário e a senha informada.`,
        );
      },
    );

  usuarios
    .command('listar')
    .description('lista as pessoas, o papel e se estão ativas')
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) => {
      const { listPeople } = await import('../../people/admin');
      await onAdmin(ctx(), opts, listPeople, formatPeople);
    });

  /** A command on one login (`<nome>`), run on the admin connection. */
  const onLogin = <T>(
    name: string,
    description: string,
    run: (people: typeof PeopleAdmin, admin: Admin, nome: string) => Promise<T>,
    text: (nome: string, result: T) => string,
  ) =>
    usuarios
      .command(name)
      .description(description)
      .argument('<nome>', 'login da pessoa')
      .option('--json', 'saída em JSON')
      .action(async (nome: string, opts: { json?: boolean }) => {
        const people = await import('../../people/admin');
        await onAdmin(
          ctx(),
          opts,
          (admin) => run(people, admin, nome),
          (r) => text(nome, r),
        );
      });

  onLogin(
    'desativar',
    'impede o login de entrar, encerra as sessões abertas e devolve à fila os itens que ele tinha',
    (people, admin, nome) => people.deactivatePerson(admin, nome),
    (nome, r) =>
      `Login ${nome} desativado: ${r.sessoesEncerradas} sessão(ões) encerrada(s), ${r.itensLiberados} item(ns) devolvido(s) à fila.`,
  );
  onLogin(
    'reativar',
    'deixa um login desativado entrar de novo',
    (people, admin, nome) => people.reactivatePerson(admin, nome),
    (nome) => `Login ${nome} reativado.`,
  );
}
