import type { Command } from 'commander';
import type { CliContext } from '../context';
import { isoDateArg, positiveInt } from '../parse';
import type { ExtractOpts } from './extract-run';

/** Registration only: the implementation (and its dependencies) loads when the command runs. */
export function registerExtract(program: Command, ctx: () => CliContext): void {
  program
    .command('extract')
    .description('extrai uma cobrança do texto do lojista com o Claude, valida, grava e mostra')
    .argument('[texto]', 'o pedido do lojista (ou a resposta dele, com --complementar)')
    .option('--merchant <n>', 'id do lojista', positiveInt(), 1)
    .option('--hoje <AAAA-MM-DD>', 'data de referência (testes e avaliações)', isoDateArg)
    .option('--json', 'saída em JSON')
    .option(
      '--file <mensagens.jsonl>',
      'lote: um JSON por linha com "texto" (e "merchant_id", "hoje")',
    )
    .option('--concorrencia <n>', 'extrações simultâneas no lote', positiveInt(16), 4)
    .option(
      '--complementar <extracao_id>',
      'reprocessa uma extração incompleta com a resposta do lojista (o texto)',
      positiveInt(),
    )
    .action(async (texto: string | undefined, opts: ExtractOpts) =>
      (await import('./extract-run')).extractAction(ctx, texto, opts),
    );
}
