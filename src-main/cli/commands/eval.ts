import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { SUITE_NAMES } from '../../evals/names';
import { InvalidArgumentError } from 'commander';
import type { RelatorioSuite, EvalRunContext } from '../../evals';
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
  gravadas?: boolean;
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
      'avalia o modelo configurado nos casos de evals/*.jsonl: acerto por campo e diferenças (sem chave da API, repete as respostas gravadas em evals/recorded/)',
    )
    .option('--suite <nome>', `suíte: ${SUITE_NAMES.join(', ')} ou todas`, 'todas')
    .option('--record', 'grava as respostas do modelo em evals/recorded/<suíte>.jsonl')
    .option(
      '--gravadas',
      'usa as respostas gravadas em evals/recorded/ em vez do modelo (padrão quando não há chave)',
    )
    .option('--concurrency <n>', 'casos em paralelo', positiveInt(16), 4)
    .option('--minimo <pct>', 'sai com erro se o acerto por caso ficar abaixo deste %', percentArg)
    .option('--dir <pasta>', 'raiz com evals/ (padrão: o projeto)')
    .option('--json', 'saída em JSON')
    .action(async (opts: EvalOptions) => {
      const {
        SUITES,
        comoRepeticao,
        formatRelatorio,
        projectRoot,
        readCases,
        readRecordings,
        recordingsFile,
        runSuite,
        writeRecordings,
        createEvalSqlDatabase,
      } = await import('../../evals');
      const { createClaudeClient } = await import('../../llm');
      const { replayFetch } = await import('../../evals/replay');
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
      // No key (or --gravadas): replay the recorded responses through the same tool loop.
      const gravadas = Boolean(opts.gravadas) || !c.settings.getApiKey()?.trim();
      if (gravadas && opts.record) {
        throw new CliError(
          opts.gravadas
            ? '--record grava respostas do modelo: não combina com --gravadas.'
            : '--record precisa de uma chave da API (ANTHROPIC_API_KEY): sem ela só é possível repetir as respostas gravadas.',
          2,
        );
      }
      const relatorios: RelatorioSuite[] = [];
      const avisos: string[] = [];
      /** Suites or cases that could not run: the command exits 1 after printing the report. */
      const falhas: string[] = [];
      if (gravadas) {
        avisos.push(
          opts.gravadas
            ? 'Respostas gravadas (--gravadas): o modelo não foi chamado.'
            : 'Sem chave da API: repetindo as respostas gravadas em evals/recorded/ (o modelo não foi chamado).',
        );
      }
      for (const nome of nomes) {
        const suite = SUITES[nome]!;
        const file = join(root, suite.arquivo);
        if (!existsSync(file)) {
          falhas.push(`Suíte ${nome}: ${suite.arquivo} não existe.`);
          continue;
        }
        const recFile = recordingsFile(root, nome);
        if (gravadas && !existsSync(recFile)) {
          falhas.push(`Suíte ${nome}: não há respostas gravadas (evals/recorded/${nome}.jsonl).`);
          continue;
        }
        const casos = readCases(suite, file);
        const gravacoes = gravadas ? readRecordings(recFile) : [];
        const client = gravadas
          ? createClaudeClient(
              { ...c.settings, getApiKey: () => 'gravadas' },
              { maxRetries: 0, fetch: replayFetch(gravacoes, suite.ferramenta) },
            )
          : createClaudeClient(c.settings);
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
        // A replay scores the product's path on recorded answers: never in a model's name.
        if (gravadas) rel = comoRepeticao(rel, gravacoes);
        relatorios.push(rel);
        // A case with an error and no model answer at all did not run (API error, no recording).
        const naoRodaram = rel.casos.filter((x) => x.erro && x.entradas.length === 0);
        if (naoRodaram.length) {
          falhas.push(
            `Suíte ${nome}: ${naoRodaram.length} de ${rel.total} caso(s) não rodaram (ex.: linha ${naoRodaram[0]!.linha}: ${naoRodaram[0]!.erro}).`,
          );
        }
        if (opts.record) {
          const n = writeRecordings(recFile, rel, c.clock.now());
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
            falhas,
            gravadas,
          }),
        );
      } else {
        c.io.out([...relatorios.map(formatRelatorio), ...avisos, ...falhas].join('\n\n'));
      }
      if (falhas.length) {
        c.exitCode = 1;
        return;
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
