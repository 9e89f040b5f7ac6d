/**
 * `balcao lojistas contatos adicionar|remover|listar --merchant N [--telefone +55…] [--json]`
 * (#37): the WhatsApp numbers of each merchant. Attaches to the `lojistas` group when another
 * module created it (#36's `lojistas listar|mostrar|chave-pix`), else creates the group.
 * Registration only: the implementation loads when a command runs.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context';
import { positiveInt } from '../parse';

/** The `lojistas` group of `program` (created when missing). */
export function lojistasGroup(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'lojistas') ??
    program
      .command('lojistas')
      .description('os lojistas, suas chaves Pix e seus números de WhatsApp')
  );
}

export function registerLojistasContatos(program: Command, ctx: () => CliContext): void {
  const impl = () => import('./lojistas-contatos-run');
  const contatos = lojistasGroup(program)
    .command('contatos')
    .description(
      'números de WhatsApp de cada lojista (E.164): a mensagem que chega de um número é desse lojista',
    );
  contatos
    .command('adicionar')
    .description('supervisor: cadastra um número de WhatsApp para o lojista (auditado)')
    .requiredOption('--merchant <n>', 'número do lojista', positiveInt())
    .requiredOption('--telefone <+55…>', 'o número em E.164, ex.: +5511987654321')
    .option('--json', 'saída em JSON')
    .action(async (opts: { merchant: number; telefone: string; json?: boolean }) =>
      (await impl()).contatosAdicionar(ctx(), opts),
    );
  contatos
    .command('remover')
    .description('supervisor: remove um número de WhatsApp do lojista (auditado)')
    .requiredOption('--merchant <n>', 'número do lojista', positiveInt())
    .requiredOption('--telefone <+55…>', 'o número em E.164, ex.: +5511987654321')
    .option('--json', 'saída em JSON')
    .action(async (opts: { merchant: number; telefone: string; json?: boolean }) =>
      (await impl()).contatosRemover(ctx(), opts),
    );
  contatos
    .command('listar')
    .description('os números de WhatsApp do lojista (sem --merchant: de todos)')
    .option('--merchant <n>', 'número do lojista', positiveInt())
    .option('--json', 'saída em JSON')
    .action(async (opts: { merchant?: number; json?: boolean }) =>
      (await impl()).contatosListar(ctx(), opts),
    );
}
