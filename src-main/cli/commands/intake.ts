/**
 * Intake commands (issue 17): enqueue, serve, worker, fila status.
 *   balcao enqueue --file msgs.jsonl [--json]
 *   balcao serve --port N [--host H]            (BALCAO_INTAKE_SECRET)
 *   balcao worker [--concurrency N]             (headless; run on as many machines as needed)
 *   balcao fila status [--json]
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { EnqueueOutcome } from '../../intake/enqueue';
import type { MensagemEntrada } from '../../intake/message';
import type { CliContext } from '../context';
import { keepServing } from '../../util/last-resort';
import { CliError } from '../io';
import { printResult } from '../output';
import { registerFilaReview } from './fila';
import { positiveInt } from '../parse';

const BATCH = 500;
const MAX_LINE = 64 * 1024;

/** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string) => () => resolve(sig);
    process.once('SIGINT', on('SIGINT'));
    process.once('SIGTERM', on('SIGTERM'));
  });
}

export function registerIntake(program: Command, ctx: () => CliContext): void {
  program
    .command('enqueue')
    .description('recebe mensagens de lojistas de um arquivo JSONL (uma por linha, idempotente)')
    .requiredOption(
      '--file <arquivo>',
      'arquivo .jsonl: {canal, mensagem_id, merchant, texto, recebida_em?, responde_a?}',
    )
    .option('--json', 'saída em JSON')
    .action(async (opts: { file: string; json?: boolean }) => {
      // The file first, before any database: a folder or a missing path is a usage error.
      const info = await stat(opts.file).catch(() => null);
      if (!info) throw new CliError(`Arquivo não encontrado: ${opts.file}.`, 2);
      if (!info.isFile()) {
        throw new CliError(`${opts.file} não é um arquivo (é uma pasta?); informe um .jsonl.`, 2);
      }
      const { countOutcomes, enqueueMessages } = await import('../../intake/enqueue');
      const { startBoss } = await import('../../intake/jobs');
      const { parseMensagem } = await import('../../intake/message');
      const c = ctx();
      const dbs = await c.databases();
      const boss = await startBoss(dbs.app, { logger: c.logger });
      const recusadas: { linha: number; motivo: string }[] = [];
      const totals = { aceita: 0, duplicada: 0, recusada: 0 };
      try {
        let stream: ReturnType<typeof createReadStream>;
        try {
          stream = createReadStream(opts.file, { encoding: 'utf8' });
          await new Promise<void>((resolve, reject) => {
            stream.once('open', () => resolve());
            stream.once('error', reject);
          });
        } catch {
          throw new CliError(`Não foi possível ler o arquivo ${opts.file}.`);
        }
        const lines = createInterface({ input: stream, crlfDelay: Infinity });
        let batch: { linha: number; msg: MensagemEntrada }[] = [];
        const flush = async () => {
          if (!batch.length) return;
          const out: EnqueueOutcome[] = await enqueueMessages(
            { pool: dbs.app, boss },
            batch.map((b) => b.msg),
          );
          out.forEach((o, i) => {
            if (o.status === 'recusada') {
              recusadas.push({ linha: batch[i]!.linha, motivo: o.motivo ?? 'recusada' });
            }
          });
          const n = countOutcomes(out);
          totals.aceita += n.aceita;
          totals.duplicada += n.duplicada;
          totals.recusada += n.recusada;
          batch = [];
        };
        let linha = 0;
        for await (const raw of lines) {
          linha++;
          if (!raw.trim()) continue;
          const refuse = (motivo: string) => {
            totals.recusada++;
            recusadas.push({ linha, motivo });
          };
          if (raw.length > MAX_LINE) {
            refuse(`Linha grande demais (máximo ${MAX_LINE.toLocaleString('pt-BR')} caracteres).`);
            continue;
          }
          let value: unknown;
          try {
            value = JSON.parse(raw);
          } catch {
            refuse('Linha não é JSON válido.');
            continue;
          }
          const p = parseMensagem(value, c.clock.now());
          if (!p.ok) {
            refuse(p.motivo);
            continue;
          }
          batch.push({ linha, msg: p.value });
          if (batch.length >= BATCH) await flush();
        }
        await flush();
      } finally {
        await boss.stop({ graceful: false, close: false, wait: true });
      }
      recusadas.sort((a, b) => a.linha - b.linha);
      printResult(
        c,
        opts.json,
        {
          aceitas: totals.aceita,
          duplicadas: totals.duplicada,
          recusadas: totals.recusada,
          motivos: recusadas,
        },
        () =>
          [
            `${totals.aceita} aceitas, ${totals.duplicada} duplicadas, ${totals.recusada} recusadas.`,
            ...recusadas.slice(0, 20).map((r) => `  linha ${r.linha}: ${r.motivo}`),
            ...(recusadas.length > 20 ? [`  … e mais ${recusadas.length - 20}.`] : []),
          ].join('\n'),
      );
      if (totals.recusada > 0) c.exitCode = 1;
    });

  program
    .command('serve')
    .description('recebe mensagens por HTTP: POST /mensagens assinado (BALCAO_INTAKE_SECRET)')
    .requiredOption('--port <n>', 'porta TCP', positiveInt(65_535))
    .option('--host <endereço>', 'endereço de escuta', '127.0.0.1')
    .action(async (opts: { port: number; host: string }) => {
      const { startBoss } = await import('../../intake/jobs');
      const { intakeSecret, startIntakeServer } = await import('../../intake/serve');
      const c = ctx();
      const secret = intakeSecret(c.env);
      // Certificates are read and checked before anything opens (#36.3): a bad file stops here.
      const { serveTls } = await import('../../intake/serve-tls');
      const tls = serveTls(c.env);
      const dbs = await c.databases();
      const { pspWebhookToken } = await import('../../psp/config');
      const { handlePixWebhook } = await import('../../psp/webhook');
      // Configurações (stored in the database) win over the environment (#36.6).
      const { withStoredPsp } = await import('../../psp/stored-config');
      const pixToken = pspWebhookToken(await withStoredPsp(dbs.app, c.env));
      const boss = await startBoss(dbs.app, { logger: c.logger });
      const { whatsappServeHook } = await import('./whatsapp');
      const whatsapp = await whatsappServeHook(c, dbs.app, boss);
      const srv = await startIntakeServer({
        pool: dbs.app,
        boss,
        secret,
        clock: c.clock,
        logger: c.logger,
        port: opts.port,
        host: opts.host,
        ...whatsapp,
        ...(tls ? { tls } : {}),
        ...(pixToken
          ? {
              pixWebhook: (req, res, path) =>
                handlePixWebhook(
                  { pool: dbs.app, token: pixToken, logger: c.logger },
                  req,
                  res,
                  path,
                ),
            }
          : {}),
      });
      c.io.err(`Recebendo mensagens em ${srv.url}/mensagens (Ctrl+C para parar).`);
      if (pixToken) {
        c.io.err(
          `Notificações Pix do PSP em POST /pix/webhook/<token>/pix${tls?.webhookCa ? ', com TLS mútuo (certificado de cliente assinado por BALCAO_PSP_WEBHOOK_CA)' : ''}.`,
        );
      }
      // From here one bad request never ends the process (#40.7): logged, and it goes on.
      const served = keepServing();
      await untilSignal();
      served();
      await srv.close();
      await boss.stop({ graceful: false, close: false, wait: true });
    });

  program
    .command('worker')
    .description('processa a fila de mensagens (sem interface; rode quantos forem precisos)')
    .option('--concurrency <n>', 'mensagens em paralelo neste processo', positiveInt(256), 4)
    .option(
      '--so-manutencao',
      'só a manutenção em segundo plano (consolida as vendas e os contadores da fila), sem processar mensagens nem precisar da chave da API',
    )
    .action(async (opts: { concurrency: number; soManutencao?: boolean }) => {
      const { createPool } = await import('../../db/pool');
      const { startWorker } = await import('../../intake/worker');
      const { requireApiKey } = await import('../../llm/client');
      const c = ctx();
      if (opts.soManutencao) {
        // A team installation without intake still needs the sales rollups folded (issue #15):
        // this runs the same fold as the app and the workers, and nothing else.
        const { startVendasConsolidador } = await import('../../sales/consolidate');
        const dbs = await c.databases();
        const pool = createPool(c.settings.get().appDatabaseUrl ?? dbs.appUrl, {
          max: 2,
          applicationName: 'balcao-manutencao',
        });
        const fold = startVendasConsolidador(pool, { logger: c.logger });
        c.io.err(
          'Manutenção ativa: consolidando vendas e contadores da fila a cada segundo (Ctrl+C para parar).',
        );
        try {
          const served = keepServing();
          await untilSignal();
          served();
          await fold.stop();
        } finally {
          await pool.end().catch(() => undefined);
        }
        return;
      }
      requireApiKey(c.settings);
      const dbs = await c.databases();
      const s = c.settings.get();
      const sessionUrl = s.directDatabaseUrl ?? dbs.appUrl;
      // Its own pool: one connection per job in flight plus pg-boss's own queries, and a few for
      // the charges' steps (their statements are short; a step waits on the PSP holding none).
      const { shouldPrepare } = await import('../../db/prepared');
      const { pspConcurrency } = await import('../../psp/worker');
      const pool = createPool(s.appDatabaseUrl ?? dbs.appUrl, {
        max: opts.concurrency + 4 + Math.ceil(pspConcurrency(c.env) / 4),
        applicationName: 'balcao-worker',
        prepare: shouldPrepare(s),
      });
      try {
        const w = await startWorker({
          pool,
          sessionUrl,
          settings: c.settings,
          clock: c.clock,
          logger: c.logger,
          concurrency: opts.concurrency,
        });
        // The charges' dispatch to the PSP (#36) runs in the same process, on the same pool.
        const { pixClientFromEnv } = await import('../../psp');
        const { linkClientFromEnv } = await import('../../psp/links');
        const { startPspWorker, sweepSeconds } = await import('../../psp/worker');
        const { jobExpireSeconds, leaseMsFor } = await import('../../intake/jobs');
        // Configurações (stored in the database) win over the environment (#36.6).
        const { withStoredPsp } = await import('../../psp/stored-config');
        const pspEnv = await withStoredPsp(pool, c.env);
        const psp = await startPspWorker({
          pool,
          boss: w.boss,
          client: pixClientFromEnv(pspEnv, c.clock),
          links: linkClientFromEnv(pspEnv, c.clock),
          clock: c.clock,
          zone: s.timeZone,
          logger: c.logger,
          leaseMs: leaseMsFor(jobExpireSeconds(c.env)),
          sweepS: sweepSeconds(c.env),
          concurrency: pspConcurrency(c.env),
        });
        // The WhatsApp sender (#37): same process, pool and pg-boss.
        const { startWhatsAppSenderFor } = await import('./whatsapp');
        const whatsapp = await startWhatsAppSenderFor(c, pool, w.boss);
        // The LGPD retention pass (#38.3): same process, pool and pg-boss.
        const { startRetentionFor } = await import('./lgpd-worker');
        const retencao = await startRetentionFor(c, pool, w.boss);
        c.io.err(
          `Worker ativo: ${opts.concurrency} em paralelo, no máximo ${s.maxEmVoo} chamadas ao modelo em voo no total (Ctrl+C para parar).`,
        );
        // From here one bad job never ends the process (#40.7): logged, and it goes on.
        const served = keepServing();
        await untilSignal();
        served();
        c.io.err('Parando: terminando as mensagens em andamento…');
        await retencao.stop();
        await whatsapp.stop();
        await psp.stop();
        await w.stop();
      } finally {
        await pool.end().catch(() => undefined);
      }
    });

  const fila = program
    .command('fila')
    .description('a fila: entrada de mensagens (status) e os pedidos em revisão');
  registerFilaReview(fila, ctx);
  fila
    .command('status')
    .description('pendências, ritmo, resultados, falhas de validação, custo e a mais antiga')
    .option('--json', 'saída em JSON')
    .action(async (opts: { json?: boolean }) => {
      const { filaStatus, formatFilaStatus } = await import('../../intake/status');
      const c = ctx();
      const dbs = await c.databases();
      const st = await filaStatus(dbs.app, c.settings.get().alertaFalhasValidacaoPct);
      printResult(c, opts.json, st, () => formatFilaStatus(st));
    });
}
