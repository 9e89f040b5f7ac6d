import { Option, type Command } from 'commander';
import type { CliContext } from '../context';
import { intRange, positiveInt } from '../parse';

const VISOES = ['aberta', 'resolvida', 'descartada'] as const;
/** The queue's orders (the contract's sorts): the nearest deadline first by default (#39.2). */
const ORDENS = ['prazo', 'antigas', 'recentes', 'tentativas'] as const;
const MOTIVOS = [
  'duplicada',
  'teste',
  'sem_resposta',
  'fora_do_escopo',
  'cancelada_pelo_lojista',
  'outro',
] as const;

/**
 * `balcao fila listar|mostrar|confirmar|descartar|perguntar|reabrir` (#41.1). Registration only:
 * the implementation loads when a command runs.
 */
export function registerFilaReview(fila: Command, ctx: () => CliContext): void {
  const impl = () => import('./fila-run');
  fila
    .command('listar')
    .description('pedidos da fila de revisão, o prazo mais urgente primeiro (os atrasados no topo)')
    .addOption(
      new Option('--visao <visao>', 'abertos, resolvidos ou descartados')
        .choices(VISOES)
        .default('aberta'),
    )
    .addOption(
      new Option(
        '--ordem <ordem>',
        'prazo (o mais urgente primeiro; fechados: os mais antigos), antigas, recentes ou tentativas',
      )
        .choices(ORDENS)
        .default('prazo'),
    )
    .option('--limite <n>', 'quantos pedidos (1–200)', intRange(1, 200), 50)
    .option('--json', 'saída em JSON')
    .action(
      async (opts: {
        visao: (typeof VISOES)[number];
        ordem: (typeof ORDENS)[number];
        limite: number;
        json?: boolean;
      }) => (await impl()).filaListar(ctx(), opts),
    );
  fila
    .command('mostrar')
    .description('um pedido: a mensagem, a cobrança como está, o motivo e o que já aconteceu')
    .argument('<pedido>', 'número do pedido', positiveInt())
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { json?: boolean }) =>
      (await impl()).filaMostrar(ctx(), id, opts),
    );
  fila
    .command('confirmar')
    .description('cria a cobrança do pedido: mostra o valor formatado e pergunta')
    .argument('<pedido>', 'número do pedido', positiveInt())
    .option('--sim', 'confirma sem perguntar (para scripts)')
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { sim?: boolean; json?: boolean }) =>
      (await impl()).filaConfirmar(ctx(), id, opts),
    );
  fila
    .command('descartar')
    .description('descarta o pedido com um motivo (pergunta antes)')
    .argument('<pedido>', 'número do pedido', positiveInt())
    .addOption(
      new Option('--motivo <motivo>', 'por que sai da fila').choices(MOTIVOS).makeOptionMandatory(),
    )
    .option('--detalhe <texto>', 'obrigatório com --motivo outro')
    .option('--sim', 'descarta sem perguntar (para scripts)')
    .option('--json', 'saída em JSON')
    .action(
      async (
        id: number,
        opts: { motivo: string; detalhe?: string; sim?: boolean; json?: boolean },
      ) => (await impl()).filaDescartar(ctx(), id, opts),
    );
  fila
    .command('perguntar')
    .description('pergunta ao lojista o que falta no pedido (o pedido passa a aguardar a resposta)')
    .argument('<pedido>', 'número do pedido', positiveInt())
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { json?: boolean }) =>
      (await impl()).filaPerguntar(ctx(), id, opts),
    );
  fila
    .command('reabrir')
    .description('supervisor: devolve à fila um pedido descartado')
    .argument('<pedido>', 'número do pedido', positiveInt())
    .option('--motivo <texto>', 'por que volta (fica na auditoria)')
    .option('--json', 'saída em JSON')
    .action(async (id: number, opts: { motivo?: string; json?: boolean }) =>
      (await impl()).filaReabrir(ctx(), id, opts),
    );
  fila
    .command('painel')
    .description(
      'supervisor: a fila por situação e idade, prazos, cada agente hoje, criação automática, falhas de validação e os últimos 7 dias',
    )
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) =>
      (await import('./fila-painel')).filaPainel(ctx(), opts),
    );
  fila
    .command('qualidade')
    .description(
      'supervisor: o acerto medido da extração por campo e por modelo/versão do prompt (IC 95%), das amostras julgadas',
    )
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) =>
      (await import('./fila-qualidade')).filaQualidade(ctx(), opts),
    );
}
