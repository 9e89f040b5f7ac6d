/**
 * `balcao lgpd retencao|exportar|anonimizar` (#38.3, #38.4): personal data's retention and the
 * data subject's rights. Registration only: the implementation loads when a command runs.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context';
import { positiveInt } from '../parse';

interface TitularOpts {
  documento?: string;
  telefone?: string;
  email?: string;
  json?: boolean;
}

const titularOptions = (cmd: Command) =>
  cmd
    .option('--documento <cpf-ou-cnpj>', 'CPF ou CNPJ do titular (com ou sem pontuação)')
    .option('--telefone <numero>', 'telefone do titular (DDD e número; +55 opcional)')
    .option('--email <endereco>', 'e-mail do titular')
    .option('--json', 'saída em JSON');

export function registerLgpd(program: Command, ctx: () => CliContext): void {
  const impl = () => import('./lgpd-run');
  const lgpd = program
    .command('lgpd')
    .description('dados pessoais (LGPD): retenção e os direitos do titular (exportar, anonimizar)');
  lgpd
    .command('retencao')
    .description(
      'anonimiza textos mais antigos que BALCAO_RETENCAO_DIAS (padrão 180): uma passada agora, ou só conta com --simular',
    )
    .option('--simular', 'só diz o que seria anonimizado em cada tabela, sem alterar nada')
    .option('--lote <n>', 'registros por transação', positiveInt(10_000), 500)
    .option('--json', 'saída em JSON')
    .action(async (opts: { simular?: boolean; lote: number; json?: boolean }) =>
      (await impl()).lgpdRetencao(ctx(), opts),
    );
  titularOptions(
    lgpd
      .command('exportar')
      .description(
        'supervisor: JSON com tudo o que o Balcão guarda sobre o titular, com a origem de cada dado (auditado)',
      ),
  ).action(async (opts: TitularOpts) => (await impl()).lgpdExportar(ctx(), opts));
  titularOptions(
    lgpd
      .command('anonimizar')
      .description(
        'supervisor: troca os dados do titular pelo marcador em todas as tabelas (lista e pergunta antes; auditado)',
      ),
  )
    .option('--sim', 'aplica sem perguntar (para scripts)')
    .action(async (opts: TitularOpts & { sim?: boolean }) =>
      (await impl()).lgpdAnonimizar(ctx(), opts),
    );
}
