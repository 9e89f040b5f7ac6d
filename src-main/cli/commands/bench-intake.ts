/**
 * `balcao bench-intake --mensagens N --workers W [--matar] [--json]` (issue 17): the intake under
 * load against the local fake Messages API, with real worker processes (see src-main/bench/intake.ts).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { BENCH_INTAKE_DB } from '../../bench/constants';
import type { IntakeBenchResult } from '../../bench/intake-report';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { printResult } from '../output';
import { benchSettings } from './bench-server';
import { databaseNameArg, intRange, positiveInt } from '../parse';

function fraction(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 0.5) {
    throw new InvalidArgumentError('use um número de 0 a 0.5 (ex.: 0.02 = 2%).');
  }
  return n;
}

const num = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });

export function formatIntakeBench(r: IntakeBenchResult): string {
  const lines = [
    `Intake: ${num(r.mensagens)} mensagens, ${r.workers} workers × ${r.concorrencia_por_worker} em paralelo, no máximo ${r.em_voo_max} chamadas em voo; API falsa ${r.api.latencia_ms} ± ${r.api.jitter_ms} ms, ${num(r.api.taxa_429 * 100)}% 429 (retry-after ${r.api.retry_after_s} s), ${num(r.api.taxa_5xx * 100)}% 5xx.`,
    `Vazão: ${num(r.vazao_msg_s)} mensagens/s em ${num(r.duracao_s)} s (teto do limite em voo: ${num(r.limite_em_voo_msg_s)}/s; vagas usadas ${num(r.uso_das_vagas_pct)}% do tempo).`,
    `Da entrada ao resultado: p50 ${num(r.latencia_ms.p50)} ms, p95 ${num(r.latencia_ms.p95)} ms, máx. ${num(r.latencia_ms.max)} ms.`,
    `Chamadas à API por mensagem: ${num(r.chamadas_api_por_mensagem)} (respostas pagas: ${num(r.tentativas_pagas_por_mensagem)}); ${r.respostas_429} respostas 429 (${r.pausas_429} pausas compartilhadas), ${r.respostas_5xx} 5xx; pico em voo ${r.pico_em_voo}.`,
    `Resultados: ${Object.entries(r.resultados)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} (esperados: ${Object.entries(r.resultados_esperados)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}).`,
    `Duplicadas: ${r.duplicadas}. Perdidas: ${r.perdidas}. Fora da ordem de chegada do lojista: ${r.fora_de_ordem}. Tentativas pagas duas vezes: ${r.pagas_duas_vezes} (repetidas depois de gravadas: ${r.repetidas_apos_gravar}; respostas entregues e não gravadas: ${r.respostas_nao_gravadas}); chamadas cortadas: ${r.chamadas_abandonadas}.`,
    `Tempo próprio do Balcão por mensagem: ${num(r.sobrecarga_ms.por_mensagem)} ms (por job p50 ${num(r.sobrecarga_ms.job_p50)} / p95 ${num(r.sobrecarga_ms.job_p95)} ms; enfileirar ${num(r.sobrecarga_ms.enfileirar_por_mensagem)} ms; CPU dos workers ${num(r.sobrecarga_ms.cpu_worker_por_job)} ms por job).`,
  ];
  if (r.kill) {
    lines.push(
      `kill -9 no worker ${r.kill.pid} aos ${num(r.kill.aos_s)} s (${r.kill.concluidas_antes} concluídas, ${r.kill.requisicoes_em_voo_no_total} requisições em voo), reiniciado; ${r.jobs_retomados} jobs retomados.`,
    );
  }
  lines.push(r.ok ? 'Invariantes: ok.' : 'Invariantes: FALHARAM.');
  return lines.join('\n');
}

interface Opts {
  mensagens: number;
  workers: number;
  concorrencia?: number;
  emVoo?: number;
  matar?: boolean;
  banco: string;
  latenciaMs: number;
  jitterMs: number;
  taxa429: number;
  taxa5xx: number;
  jobExpiraS: number;
  prazoS: number;
  json?: boolean;
}

export function registerBenchIntake(program: Command, ctx: () => CliContext): void {
  program
    .command('bench-intake')
    .description(
      'benchmark da entrada de mensagens: workers reais contra a API de mensagens falsa (latência, 429, 5xx)',
    )
    .option('--mensagens <n>', 'mensagens enfileiradas', positiveInt(100_000), 1000)
    .option('--workers <n>', 'processos `balcao worker`', positiveInt(16), 2)
    .option(
      '--concorrencia <n>',
      'mensagens em paralelo por worker (padrão: o bastante para o limite em voo mandar)',
      positiveInt(256),
    )
    .option(
      '--em-voo <n>',
      'BALCAO_MAX_EM_VOO da rodada (padrão: o configurado, 8)',
      positiveInt(1000),
    )
    .option('--matar', 'mata um worker com kill -9 no meio da rodada e o reinicia')
    .option(
      '--banco <nome>',
      'banco de benchmark (recriado a cada rodada)',
      databaseNameArg,
      BENCH_INTAKE_DB,
    )
    .option('--latencia-ms <n>', 'latência média de uma resposta da API', intRange(0, 60_000), 900)
    .option('--jitter-ms <n>', 'variação da latência (±, uniforme)', intRange(0, 60_000), 300)
    .option('--taxa-429 <f>', 'fração de respostas 429 com retry-after', fraction, 0.01)
    .option('--taxa-5xx <f>', 'fração de respostas 500/529', fraction, 0.02)
    .option(
      '--job-expira-s <n>',
      'BALCAO_JOB_EXPIRA_S da rodada: quando o job de um worker morto volta à fila',
      intRange(5, 3600),
      20,
    )
    .option('--prazo-s <n>', 'tempo máximo da rodada', positiveInt(86_400), 1800)
    .option('--json', 'saída em JSON')
    .action(async (opts: Opts) => {
      const { runIntakeBench } = await import('../../bench/intake');
      const c = ctx();
      const s = await benchSettings(c);
      const emVoo = opts.emVoo ?? s.maxEmVoo;
      const r = await runIntakeBench({
        serverUrl: s.databaseUrl,
        ...(s.appDatabaseUrl ? { appUrl: s.appDatabaseUrl } : {}),
        ...(s.directDatabaseUrl ? { directUrl: s.directDatabaseUrl } : {}),
        banco: opts.banco,
        mensagens: opts.mensagens,
        workers: opts.workers,
        concorrencia: opts.concorrencia ?? Math.max(4, Math.ceil((emVoo * 1.5) / opts.workers)),
        emVoo,
        matar: opts.matar === true,
        latenciaMs: opts.latenciaMs,
        jitterMs: Math.min(opts.jitterMs, opts.latenciaMs),
        taxa429: opts.taxa429,
        taxa5xx: opts.taxa5xx,
        retryAfterS: 1,
        jobExpiraS: opts.jobExpiraS,
        prazoS: opts.prazoS,
        timeZone: s.timeZone,
        env: c.env,
        onProgress: (t) => {
          if (!opts.json && c.io.isTTY) c.io.err(`  ${t}…`);
        },
      });
      printResult(c, opts.json, r, () => formatIntakeBench(r));
      if (!r.ok) {
        if (opts.json) c.exitCode = 1;
        else
          throw new CliError(
            'Invariantes da entrada falharam (duplicadas, perdidas, fora de ordem ou repetidas).',
          );
      }
    });
}
