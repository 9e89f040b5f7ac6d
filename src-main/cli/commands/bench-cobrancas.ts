/**
 * `balcao bench-cobrancas --cobrancas N [--latencia-ms M] [--json]` (#36): the Pix dispatch under
 * load against the bench PSP (HTTPS + mutual TLS, latency per call), with the product's own
 * worker and client (see src-main/bench/cobrancas.ts).
 */
import type { Command } from 'commander';
import { BENCH_COBRANCAS_DB } from '../../bench/constants';
import type { CobrancasBenchResult } from '../../bench/cobrancas';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { printResult } from '../output';
import { benchSettings } from './bench-server';
import { databaseNameArg, intRange, positiveInt } from '../parse';

const num = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 3 });

export function formatCobrancasBench(r: CobrancasBenchResult): string {
  return [
    `Envio de cobranças Pix: ${num(r.cobrancas)} cobranças confirmadas por ${r.agentes} agentes; worker com ${r.concorrencia} em paralelo; PSP falso (HTTPS + mTLS) com ${r.latencia_psp_ms} ms por chamada.`,
    `Da confirmação a registrada: p50 ${num(r.confirmar_ate_registrada_ms.p50)} ms, p95 ${num(r.confirmar_ate_registrada_ms.p95)} ms, máx. ${num(r.confirmar_ate_registrada_ms.max)} ms.`,
    `Vazão: ${num(r.vazao_cobrancas_s)} cobranças/s (${num(r.registradas)} registradas em ${num(r.duracao_s)} s).`,
    `Chamadas ao PSP por cobrança: ${num(r.chamadas_por_cobranca)} (PUT ${num(r.puts_por_cobranca)}, token ${num(r.tokens_por_cobranca)}); total: ${r.chamadas.put} PUT, ${r.chamadas.token} token, ${r.chamadas.get} GET, ${r.chamadas.conflito_409} respostas 409.`,
    `Duplicadas no PSP: ${r.duplicadas}.`,
    r.ok ? 'Invariantes: ok.' : 'Invariantes: FALHARAM.',
  ].join('\n');
}

interface Opts {
  cobrancas: number;
  latenciaMs: number;
  concorrencia: number;
  agentes: number;
  banco: string;
  prazoS: number;
  json?: boolean;
}

export function registerBenchCobrancas(program: Command, ctx: () => CliContext): void {
  program
    .command('bench-cobrancas')
    .description(
      'benchmark do envio de cobranças Pix: confirmação → registrada contra um PSP falso (HTTPS + mTLS)',
    )
    .option('--cobrancas <n>', 'cobranças confirmadas', positiveInt(100_000), 2000)
    .option('--latencia-ms <n>', 'latência de cada chamada ao PSP', intRange(0, 60_000), 20)
    .option('--concorrencia <n>', 'passos de envio em paralelo no worker', positiveInt(256), 16)
    .option('--agentes <n>', 'agentes confirmando ao mesmo tempo', positiveInt(64), 4)
    .option(
      '--banco <nome>',
      'banco de benchmark (recriado a cada rodada)',
      databaseNameArg,
      BENCH_COBRANCAS_DB,
    )
    .option('--prazo-s <n>', 'tempo máximo da rodada', positiveInt(86_400), 1800)
    .option('--json', 'saída em JSON')
    .action(async (opts: Opts) => {
      const { runCobrancasBench } = await import('../../bench/cobrancas');
      const c = ctx();
      const s = await benchSettings(c);
      const r = await runCobrancasBench({
        serverUrl: s.databaseUrl,
        ...(s.appDatabaseUrl ? { appUrl: s.appDatabaseUrl } : {}),
        banco: opts.banco,
        cobrancas: opts.cobrancas,
        latenciaMs: opts.latenciaMs,
        concorrencia: opts.concorrencia,
        agentes: opts.agentes,
        prazoS: opts.prazoS,
        timeZone: s.timeZone,
        onProgress: (t) => {
          if (!opts.json && c.io.isTTY) c.io.err(`  ${t}…`);
        },
      });
      printResult(c, opts.json, r, () => formatCobrancasBench(r));
      if (!r.ok) {
        if (opts.json) c.exitCode = 1;
        else
          throw new CliError(
            'Invariantes do envio falharam (cobranças não registradas ou duplicadas no PSP).',
          );
      }
    });
}
