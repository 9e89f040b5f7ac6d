import type { Command } from 'commander';
import { AppError } from '@shared/errors';
import { DEFAULT_SEED_MERCHANTS, DEFAULT_SEED_TRANSACTIONS } from '../../db/seed-constants';
import type { EndpointName } from '../../db/status';
import type { CliContext } from '../context';
import { positiveInt } from '../parse';
import { printResult } from '../output';
import { CliError, confirmOrSim } from '../io';

export function registerDb(program: Command, ctx: () => CliContext): void {
  const db = program.command('db').description('banco de dados: migrações e dados de demonstração');

  db.command('migrate')
    .description('aplica as migrações pendentes (idempotente)')
    .option(
      '--restringir-analise',
      'como superusuário: tira do usuário de análise o acesso aos outros bancos do servidor (lista os comandos e pergunta)',
    )
    .option('--sim', 'com --restringir-analise: aplica sem perguntar (para scripts)')
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean; restringirAnalise?: boolean; sim?: boolean }) => {
      if (opts.sim && !opts.restringirAnalise) {
        throw new CliError('--sim vale só com --restringir-analise.', 2);
      }
      const c = ctx();
      const s = c.settings.get();
      if (opts.restringirAnalise && s.databaseUrl) {
        // Refused before anything is applied when the login may not restrict.
        const { requireSuperuserAt } = await import('../../db/restrict-analytics');
        await requireSuperuserAt(s.databaseUrl, s.dbConnectTimeoutMs);
      }
      const dbs = await c.databases({ migrate: true });
      const applied = dbs.migrations;
      // What was applied is said first, whatever is still open after it (#40.4).
      const appliedText = applied.length
        ? `Migrações aplicadas: ${applied.join(', ')}.`
        : 'Banco já está atualizado; nenhuma migração pendente.';
      const result = { aplicadas: applied, banco: dbs.mode };
      const { checkAnalyticsReach } = await import('../../db/connect');
      if (opts.restringirAnalise) {
        const { analyticsRestrictionPlan, applyAnalyticsRestriction } =
          await import('../../db/restrict-analytics');
        if (!opts.json) c.io.out(appliedText);
        const plan = await analyticsRestrictionPlan(dbs.admin);
        const restricao = { alcancaveis: plan.alcancaveis, comandos: plan.comandos };
        if (plan.comandos.length === 0) {
          printResult(
            c,
            opts.json,
            { ...result, restricao: { ...restricao, aplicada: false } },
            () => `O usuário de análise já alcança só o banco ${plan.banco}: nada a restringir.`,
          );
          return;
        }
        if (!opts.json || !opts.sim) {
          c.io.err(
            `O usuário de análise conecta em ${plan.alcancaveis.join(', ')}. Comandos a aplicar (uma transação):\n` +
              plan.comandos.map((x) => `  ${x};`).join('\n'),
          );
        }
        if (!(await confirmOrSim(c.io, 'Aplicar estes comandos?', opts.sim))) {
          throw new CliError('Nada foi alterado.', 1);
        }
        await applyAnalyticsRestriction(dbs.admin, plan);
        printResult(
          c,
          opts.json,
          { ...result, restricao: { ...restricao, aplicada: true } },
          () => `Pronto: o usuário de análise alcança só o banco ${plan.banco}.`,
        );
        return;
      }
      // #12 point 6 on a team server: the desktops have no admin login to check the analytics
      // role's reach, so the deployment's migration (run with one) refuses to call it done.
      const open = await checkAnalyticsReach(
        dbs.admin,
        c.settings.get().analyticsOutrosBancos,
      ).then(
        () => null,
        (e: unknown) => {
          if (!(e instanceof AppError)) throw e;
          return e;
        },
      );
      if (open) {
        if (!opts.json) c.io.out(appliedText);
        throw new AppError(
          open.code,
          opts.json
            ? `${applied.length ? `Migrações aplicadas (${applied.join(', ')}), mas o` : 'O'} banco não está pronto: ${open.message}`
            : `O banco ainda não está pronto: ${open.message}`,
        );
      }
      printResult(c, opts.json, result, () => appliedText);
    });

  // Internal (#41.8): the keeper a command leaves behind, detached (see db/embedded.ts).
  db.command('manter-embutido', { hidden: true })
    .requiredOption('--pasta <dir>', 'pasta do PostgreSQL embutido')
    .requiredOption('--segundos <n>', 'segundos sem uso até parar', positiveInt(86_400))
    .action(async (opts: { pasta: string; segundos: number }) => {
      const { runEmbeddedKeeper } = await import('../../db/embedded');
      await runEmbeddedKeeper(opts.pasta, opts.segundos);
    });

  db.command('status')
    .description(
      'estado de cada conexão (admin, app, análise): no ar, versão, usuário, primário ou réplica, atraso, migrações',
    )
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) => {
      const { resolveExternalUrls } = await import('../../db/connect');
      const { databaseStatus, formatDbStatus } = await import('../../db/status');
      const c = ctx();
      const s = c.settings.get();
      let urls: Record<EndpointName, string>;
      if (s.databaseUrl) {
        // Straight to each URL: a server that is down must not stop the others' report.
        const r = resolveExternalUrls(s, s.databaseUrl);
        urls = { admin: r.adminUrl, app: r.appUrl, analytics: r.analyticsUrl };
      } else {
        const dbs = await c.databases({ migrate: false });
        const of = (p: { options: { connectionString?: string } }) =>
          p.options.connectionString ?? '';
        urls = { admin: dbs.adminUrl, app: of(dbs.app), analytics: of(dbs.analytics) };
      }
      const st = await databaseStatus(urls);
      if (Object.values(st).some((e) => !e.alcancavel)) c.exitCode = 1;
      printResult(c, opts.json, st, () =>
        formatDbStatus(st, { agora: c.clock.now(), zone: s.timeZone }),
      );
    });

  db.command('seed-demo')
    .description('carrega dados de demonstração determinísticos (substitui os existentes)')
    .option(
      '--merchants <n>',
      'quantidade de lojistas',
      positiveInt(100_000),
      DEFAULT_SEED_MERCHANTS,
    )
    .option(
      '--transactions <n>',
      'quantidade de transações',
      positiveInt(100_000_000),
      DEFAULT_SEED_TRANSACTIONS,
    )
    .option('--seed <n>', 'semente do gerador', positiveInt(), 20260301)
    .option(
      '--forcar',
      'recarrega mesmo num banco com histórico (auditoria, perguntas), que é mantido',
    )
    .option('--json', 'saída em JSON')
    .action(
      async (opts: {
        merchants: number;
        transactions: number;
        seed: number;
        forcar?: boolean;
        json?: boolean;
      }) => {
        const { seedDemo } = await import('../../db/seed');
        const c = ctx();
        const dbs = await c.databases();
        const t0 = performance.now();
        let lastPct = -1;
        const r = await seedDemo(dbs.admin, {
          now: c.clock.now(),
          timeZone: c.settings.get().timeZone,
          merchants: opts.merchants,
          transactions: opts.transactions,
          seed: opts.seed,
          forcar: opts.forcar,
          onProgress: (done, total) => {
            const pct = Math.floor((done / total) * 100);
            if (c.io.isTTY && !opts.json && pct !== lastPct) {
              lastPct = pct;
              c.io.err(
                `  ${pct}% (${done.toLocaleString('pt-BR')} de ${total.toLocaleString('pt-BR')})`,
              );
            }
          },
        });
        const segundos = Number(((performance.now() - t0) / 1000).toFixed(2));
        printResult(
          c,
          opts.json,
          { lojistas: r.merchants, transacoes: r.transactions, extracoes: r.extractions, segundos },
          () =>
            `Dados de demonstração carregados: ${r.merchants} lojistas, ${r.transactions.toLocaleString('pt-BR')} transações, ${r.extractions} mensagens de cobrança (${segundos.toLocaleString('pt-BR')} s).`,
        );
      },
    );
}
