/**
 * `balcao bench-whatsapp --mensagens N [--json]` (#37): the merchant's channel under load — Meta's
 * signed deliveries at a real `balcao serve`, real workers with the fake model, our questions at a
 * fake Graph API (see src-main/bench/whatsapp.ts).
 */
import type { Command } from 'commander';
import { BENCH_WHATSAPP_DB } from '../../bench/constants';
import type { WhatsAppBenchResult } from '../../bench/whatsapp';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { printResult } from '../output';
import { benchSettings } from './bench-server';
import { databaseNameArg, intRange, positiveInt } from '../parse';

const num = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });

export function formatWhatsAppBench(r: WhatsAppBenchResult): string {
  return [
    `WhatsApp: ${num(r.mensagens)} mensagens de ${num(r.lojistas)} lojistas em notificações assinadas (${r.por_segundo > 0 ? `${num(r.por_segundo)} por segundo` : 'todas de uma vez'}, até ${r.paralelo} em paralelo) no balcao serve; ${r.workers} workers × ${r.concorrencia}; modelo falso ${r.latencia_modelo_ms} ms, API do WhatsApp falsa ${r.latencia_graph_ms} ms.`,
    `Confirmação do webhook (200): p50 ${num(r.ack_webhook_ms.p50)} ms, p95 ${num(r.ack_webhook_ms.p95)} ms, máx. ${num(r.ack_webhook_ms.max)} ms (meta p95 ≤ 50 ms); guardadas depois da confirmação: ${r.guardadas_depois_do_ack}.`,
    `Da mensagem do lojista à pergunta entregue: p50 ${num(r.mensagem_ate_pergunta_ms.p50)} ms, p95 ${num(r.mensagem_ate_pergunta_ms.p95)} ms, máx. ${num(r.mensagem_ate_pergunta_ms.max)} ms.`,
    `Vazão: ${num(r.vazao_mensagens_s)} mensagens/s (${num(r.perguntas_entregues)} perguntas entregues em ${num(r.duracao_s)} s).`,
    `Guardadas: ${r.guardadas}. Reenvios da Meta: ${r.reenvios}. Duplicadas: ${r.duplicadas}. Recusadas pelo esquema da Meta: ${r.violacoes}. Respostas diferentes de 200 (entregues de novo, como a Meta faz): ${r.respostas_nao_200}.`,
    `Carga média da máquina (1 min): ${num(r.carga_media[0])} no início, ${num(r.carga_media[1])} no fim — com outros processos na máquina, os tempos sobem.`,
    r.ok ? 'Invariantes: ok.' : 'Invariantes: FALHARAM.',
  ].join('\n');
}

interface Opts {
  mensagens: number;
  lojistas: number;
  paralelo: number;
  porSegundo: number;
  workers: number;
  concorrencia: number;
  latenciaModeloMs: number;
  latenciaGraphMs: number;
  reenviosPct: number;
  banco: string;
  prazoS: number;
  json?: boolean;
}

export function registerBenchWhatsApp(program: Command, ctx: () => CliContext): void {
  program
    .command('bench-whatsapp')
    .description(
      'benchmark do canal WhatsApp: notificações assinadas no balcao serve → pergunta entregue numa API do WhatsApp falsa',
    )
    .option('--mensagens <n>', 'mensagens de lojistas entregues', positiveInt(100_000), 2000)
    .option('--lojistas <n>', 'lojistas escrevendo (um número cada)', intRange(20, 9999), 500)
    .option('--paralelo <n>', 'notificações da Meta em voo ao mesmo tempo', positiveInt(256), 16)
    .option(
      '--por-segundo <n>',
      'mensagens chegando por segundo (0: todas de uma vez, só limitadas por --paralelo)',
      intRange(0, 10_000),
      0,
    )
    .option('--workers <n>', 'processos `balcao worker`', positiveInt(16), 2)
    .option('--concorrencia <n>', 'mensagens em paralelo por worker', positiveInt(256), 8)
    .option('--latencia-modelo-ms <n>', 'latência do modelo falso', intRange(0, 60_000), 300)
    .option('--latencia-graph-ms <n>', 'latência da API do WhatsApp falsa', intRange(0, 60_000), 50)
    .option(
      '--reenvios-pct <n>',
      'notificações que a Meta entrega de novo (%)',
      intRange(0, 100),
      5,
    )
    .option(
      '--banco <nome>',
      'banco de benchmark (recriado a cada rodada)',
      databaseNameArg,
      BENCH_WHATSAPP_DB,
    )
    .option('--prazo-s <n>', 'tempo máximo da rodada', positiveInt(86_400), 1800)
    .option('--json', 'saída em JSON')
    .action(async (opts: Opts) => {
      const { runWhatsAppBench } = await import('../../bench/whatsapp');
      const c = ctx();
      const s = await benchSettings(c);
      const r = await runWhatsAppBench({
        serverUrl: s.databaseUrl,
        ...(s.appDatabaseUrl ? { appUrl: s.appDatabaseUrl } : {}),
        banco: opts.banco,
        mensagens: opts.mensagens,
        lojistas: opts.lojistas,
        paralelo: opts.paralelo,
        porSegundo: opts.porSegundo,
        workers: opts.workers,
        concorrencia: opts.concorrencia,
        latenciaModeloMs: opts.latenciaModeloMs,
        latenciaGraphMs: opts.latenciaGraphMs,
        reenviosPct: opts.reenviosPct,
        prazoS: opts.prazoS,
        timeZone: s.timeZone,
        env: c.env,
        onProgress: (t) => {
          if (!opts.json && c.io.isTTY) c.io.err(`  ${t}…`);
        },
      });
      printResult(c, opts.json, r, () => formatWhatsAppBench(r));
      if (!r.ok) {
        if (opts.json) c.exitCode = 1;
        else
          throw new CliError(
            'Invariantes do WhatsApp falharam (mensagens não guardadas antes da confirmação, perguntas não entregues ou duplicadas).',
          );
      }
    });
}
