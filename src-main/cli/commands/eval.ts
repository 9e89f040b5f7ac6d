import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import {
  SUITES,
  formatRelatorio,
  projectRoot,
  readCases,
  recordingsFile,
  runSuite,
  writeRecordings,
  createEvalSqlDatabase,
  type RelatorioSuite,
  type EvalRunContext,
} from '../../evals';
import { createClaudeClient } from '../../llm';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { positiveInt } from '../parse';

interface EvalOptions {
  suite: string;
  record?: boolean;
  json?: boolean;
  concurrency: number;
  minimo?: number;
  dir?: string;
}

function percentArg(v: string): number {
  const n = Number(v.replace(',', '.'));
  if (!Number.isFinite(n) || n < 0 || n > 100) {
    throw new InvalidArgumentError('use um percentual entre 0 e 100.');
  }
  return n;
}

export function registerEval(program: Command, ctx: () => CliContext): void {
  program
    .command('eval')
    .description(
      'avalia o modelo configurado nos casos de evals/*.jsonl (precisa de chave): acerto por campo e diferenças',
    )
    .option('--suite <nome>', `suíte: ${Object.keys(SUITES).join(', ')} ou todas`, 'todas')
    .option('--record', 'grava as respostas do modelo em evals/recorded/<suíte>.jsonl')
    .option('--concurrency <n>', 'casos em paralelo', positiveInt(16), 4)
    .option('--minimo <pct>', 'sai com erro se o acerto por caso ficar abaixo deste %', percentArg)
    .option('--dir <pasta>', 'raiz com evals/ (padrão: o projeto)')
    .option('--json', 'saída em JSON')
    .action(async (opts: EvalOptions) => {
      const c = ctx();
      const nomes = opts.suite === 'todas' ? Object.keys(SUITES) : [opts.suite];
      for (const n of nomes) {
        if (!SUITES[n]) {
          throw new CliError(
            `Suíte desconhecida: ${n}. Use ${Object.keys(SUITES).join(', ')} ou todas.`,
            2,
          );
        }
      }
      const root = opts.dir ? resolve(opts.dir) : projectRoot();
      const client = createClaudeClient(c.settings);
      const relatorios: RelatorioSuite[] = [];
      const avisos: string[] = [];
      for (const nome of nomes) {
        const suite = SUITES[nome]!;
        const file = join(root, suite.arquivo);
        if (!existsSync(file) && opts.suite === 'todas') {
          avisos.push(`Suíte ${nome}: ${suite.arquivo} não existe; pulada.`);
          continue;
        }
        const casos = readCases(suite, file);
        const runCtx: EvalRunContext = { client, settings: c.settings, config: c.settings.get() };
        // The free-SQL suite runs on fixed data in a database of its own, dropped afterwards.
        const evalDb = suite.precisaBanco
          ? await c.databases().then((dbs) => createEvalSqlDatabase(dbs.adminUrl, dbs.analyticsUrl))
          : undefined;
        if (evalDb) runCtx.sqlDb = { analytics: evalDb.analytics, merchantId: evalDb.merchantId };
        let rel: RelatorioSuite;
        try {
          rel = await runSuite(suite, casos, runCtx, {
            concurrency: opts.concurrency,
            onCase: (done, total) => {
              if (c.io.isTTY && !opts.json) c.io.err(`  ${nome}: ${done}/${total}`);
            },
          });
        } finally {
          await evalDb?.drop();
        }
        relatorios.push(rel);
        if (opts.record) {
          const n = writeRecordings(recordingsFile(root, nome), rel, c.clock.now());
          avisos.push(`Suíte ${nome}: ${n} respostas gravadas em evals/recorded/${nome}.jsonl.`);
        }
      }
      if (opts.json) {
        c.io.out(
          JSON.stringify({
            suites: relatorios.map((r) => ({
              ...r,
              casos: r.casos.map(({ entradas: _e, ...rest }) => rest),
            })),
            avisos,
          }),
        );
      } else {
        c.io.out([...relatorios.map(formatRelatorio), ...avisos].join('\n\n'));
      }
      if (opts.minimo !== undefined) {
        const abaixo = relatorios.filter(
          (r) => (r.total ? (r.acertos / r.total) * 100 : 0) < opts.minimo!,
        );
        if (abaixo.length) {
          throw new CliError(
            `Acerto abaixo de ${opts.minimo}% em: ${abaixo.map((r) => r.suite).join(', ')}.`,
            1,
          );
        }
      }
    });
}
