import type { Command } from 'commander';
import type { CliContext } from '../context';
import { isoDateArg } from '../parse';
import type { PerguntasOptions } from './perguntas-run';

/** Registration only: the implementation (and its dependencies) loads when the command runs. */
export function registerPerguntas(program: Command, ctx: () => CliContext): void {
  program
    .command('perguntas')
    .description(
      'relatório das perguntas de vendas: desfechos, perguntas sem resposta e chips editados',
    )
    .option('--desde <AAAA-MM-DD>', 'primeiro dia (padrão: 30 dias atrás)', isoDateArg)
    .option('--ate <AAAA-MM-DD>', 'último dia (padrão: hoje)', isoDateArg)
    .option('--json', 'saída em JSON')
    .action(async (opts: PerguntasOptions) =>
      (await import('./perguntas-run')).perguntasAction(ctx, opts),
    );
}
