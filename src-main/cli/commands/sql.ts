import type { Command } from 'commander';
import type { CliContext } from '../context';
import { positiveInt } from '../parse';

/** Registration only: the implementation (and its dependencies) loads when the command runs. */
export function registerSql(program: Command, ctx: () => CliContext): void {
  program
    .command('sql')
    .description(
      'consulta livre (só SELECT na visão vendas_ia), pela mesma guarda usada com o modelo',
    )
    .argument('[sql]', 'a consulta SELECT')
    .option('--merchant <n>', 'lojista (id)', positiveInt())
    .option(
      '--batch <arquivo>',
      'linhas JSON {"merchant": N, "sql": "..."} em ordem, por uma conexão',
    )
    .option('--json', 'saída em JSON')
    .action(
      async (
        sql: string | undefined,
        opts: { merchant?: number; batch?: string; json?: boolean },
      ) => (await import('./sql-run')).sqlAction(ctx, sql, opts),
    );
}
