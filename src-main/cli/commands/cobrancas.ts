import { Option, type Command } from 'commander';
import { ESTADOS_ENVIO } from '@shared/contract/pix';
import type { CliContext } from '../context';
import { intRange, positiveInt } from '../parse';

/**
 * `balcao cobrancas listar|mostrar|reenviar|cancelar|reconciliar|webhook` and
 * `balcao lojistas listar|mostrar|chave-pix` (#36). Registration only: the implementation loads
 * when a command runs.
 */
export function registerCobrancas(program: Command, ctx: () => CliContext): void {
  const impl = () => import('./cobrancas-run');
  const cob = program
    .command('cobrancas')
    .description('as cobranças criadas e o envio ao PSP (Pix): estado, copia-e-cola, pagamento');
  cob
    .command('listar')
    .description('cobranças, as mais novas primeiro, com o estado do envio ao PSP')
    .addOption(new Option('--estado <estado>', 'só as deste estado').choices(ESTADOS_ENVIO))
    .option('--merchant <n>', 'só as deste lojista', positiveInt())
    .option('--limite <n>', 'quantas (1–500)', intRange(1, 500), 50)
    .option('--json', 'saída em JSON')
    .action(async (opts: { estado?: string; merchant?: number; limite: number; json?: boolean }) =>
      (await impl()).cobrancasListar(ctx(), opts),
    );
  cob
    .command('mostrar')
    .description('uma cobrança: estado, txid, copia-e-cola e cada passo do envio')
    .argument('<cobranca>', 'número da cobrança', positiveInt())
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { json?: boolean }) =>
      (await impl()).cobrancasMostrar(ctx(), id, opts),
    );
  cob
    .command('reenviar')
    .description('envia de novo ao PSP agora (uma que falhou volta a pendente; o mesmo txid)')
    .argument('<cobranca>', 'número da cobrança', positiveInt())
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { json?: boolean }) =>
      (await impl()).cobrancasReenviar(ctx(), id, opts),
    );
  cob
    .command('cancelar')
    .description('supervisor: remove a cobrança no PSP e a cancela aqui (pergunta antes; auditado)')
    .argument('<cobranca>', 'número da cobrança', positiveInt())
    .option('--sim', 'cancela sem perguntar (para scripts)')
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { sim?: boolean; json?: boolean }) =>
      (await impl()).cobrancasCancelar(ctx(), id, opts),
    );
  cob
    .command('reconciliar')
    .description(
      'consulta agora no PSP todas as cobranças abertas (pagamentos, remoções, vencidas)',
    )
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) => (await impl()).cobrancasReconciliar(ctx(), opts));
  cob
    .command('webhook')
    .description(
      'registra no PSP, para cada chave Pix dos lojistas, a URL das notificações (PUT /webhook/{chave})',
    )
    .requiredOption('--url <url>', 'endereço público de "balcao serve" (https://…)')
    .option('--json', 'saída em JSON')
    .action(async (opts: { url: string; json?: boolean }) =>
      (await impl()).cobrancasWebhook(ctx(), opts),
    );

  const loj =
    program.commands.find((c) => c.name() === 'lojistas') ??
    program.command('lojistas').description('os lojistas e suas chaves Pix');
  loj
    .command('listar')
    .description('lojistas com a chave Pix e as cobranças abertas e com falha')
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) => (await impl()).lojistasListar(ctx(), opts));
  loj
    .command('mostrar')
    .description('um lojista')
    .argument('<merchant>', 'número do lojista', positiveInt())
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { json?: boolean }) =>
      (await impl()).lojistasMostrar(ctx(), id, opts),
    );
  loj
    .command('chave-pix')
    .description('supervisor: cadastra a chave Pix do lojista (CPF, CNPJ, e-mail, +55…, aleatória)')
    .requiredOption('--merchant <n>', 'número do lojista', positiveInt())
    .requiredOption('--chave <chave>', 'a chave Pix')
    .option('--json', 'saída em JSON')
    .action(async (opts: { merchant: number; chave: string; json?: boolean }) =>
      (await impl()).lojistasChavePix(ctx(), opts),
    );
}
