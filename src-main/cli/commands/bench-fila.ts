/**
 * `balcao bench-fila --agentes 50 --itens 20000 [--segundos 120] [--json]` (#39.1): a team of
 * agents on one live queue while real workers feed it (see src-main/bench/fila.ts).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { BENCH_FILA_DB } from '../../bench/constants';
import type { FilaBenchResult, Quantis } from '../../bench/fila';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { printResult } from '../output';
import { benchSettings } from './bench-server';
import { databaseNameArg, intRange, positiveInt } from '../parse';

const num = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 1 });
const q = (x: Quantis) => `p50 ${num(x.p50)} ms, p95 ${num(x.p95)} ms (${num(x.n)} medidas)`;
const meta = (ok: boolean) => (ok ? 'meta atingida' : 'FORA da meta');

export function formatFilaBench(r: FilaBenchResult): string {
  const apps = Object.entries(r.conexoes.por_aplicacao)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const via = r.pooler.pgbouncer
    ? `pelo PgBouncer (transação, no máximo ${r.pooler.max_conexoes} conexões no banco)`
    : 'direto no PostgreSQL (sem PgBouncer)';
  const aoVivo =
    r.ao_vivo === 'mudancas'
      ? 'registro de mudanças lido pelo pool de cada um'
      : 'LISTEN, uma sessão direta por desktop';
  return [
    `Fila com ${r.agentes} agentes, cada um com seu login, ${via}; ao vivo: ${aoVivo}; ${num(r.segundos)} s de trabalho (os primeiros ${num(r.aquecimento_s)} s sem cronometrar: conexões novas esquentando; as verificações cobrem tudo), pensando ${num(r.pensar_ms.min / 1000)}–${num(r.pensar_ms.max / 1000)} s entre os passos.`,
    `Fila: ${num(r.itens_pre_carregados)} itens já na fila no início; entrada durante a rodada: ${num(r.entrada.concluidas)} de ${num(r.entrada.mensagens)} mensagens viraram itens pelos workers (${num(r.entrada.duracao_s)} s); ${num(r.itens_na_fila)} itens no fim.`,
    `Ações: ${num(r.acoes.assumidas)} assumidos, ${num(r.acoes.confirmadas)} confirmados, ${num(r.acoes.descartadas)} descartados, ${num(r.acoes.perguntadas)} perguntas ao lojista, ${num(r.acoes.rascunhos)} rascunhos; ${num(r.acoes.disputas)} vezes sem item livre no "Próximo pedido"; ${num(r.acoes.erros)} erros.`,
    `Assumir: ${q(r.assumir_ms)} — ${meta(r.metas_atingidas.assumir)} (p95 ≤ ${r.metas.assumir_p95_ms} ms).`,
    `Confirmar: ${q(r.confirmar_ms)} — ${meta(r.metas_atingidas.confirmar)} (p95 ≤ ${r.metas.confirmar_p95_ms} ms).`,
    `Listar (primeira página com contagens): ${q(r.listar_ms)}. Abrir: ${q(r.abrir_ms)}. Salvar: ${q(r.salvar_ms)}.`,
    `Ao vivo (ação → cada outro agente sabe): ${q(r.ao_vivo_ms)} — ${meta(r.metas_atingidas.ao_vivo)} (p95 ≤ ${r.metas.ao_vivo_p95_ms} ms); não recebidas: ${r.ao_vivo_nao_recebidas}; reconexões: ${r.ao_vivo_reconexoes}.`,
    `Atraso do próprio processo do bench (laço de eventos, todos os desktops num processo): p50 ${num(r.atraso_do_bench_ms.p50)} ms, p95 ${num(r.atraso_do_bench_ms.p95)} ms, máx. ${num(r.atraso_do_bench_ms.max)} ms.`,
    `Conexões no banco (pico): ${r.conexoes.pico_total} no total, ${r.conexoes.pico_desktops} dos desktops${r.pooler.pgbouncer ? ` — ${meta(r.metas_atingidas.conexoes)} (≤ ${r.pooler.max_conexoes})` : ''}; por aplicação: ${apps}.`,
    `Assunções duplas: ${r.assuncoes_duplas}. Ações perdidas: ${r.acoes_perdidas}. Duplicadas: ${r.acoes_duplicadas}. Itens em estado errado: ${r.itens_em_estado_errado}. Sem conta: ${r.itens_sem_conta}. Ainda reservados no fim: ${r.reservas_restantes}. Ações sem resposta (podem ter sido gravadas): ${r.acoes.incertas}.`,
    `Carga da máquina (1/5/15 min): ${r.carga.inicio.map(num).join(' / ')} no início, ${r.carga.fim.map(num).join(' / ')} no fim.`,
    r.ok ? 'Invariantes: ok.' : 'Invariantes: FALHARAM.',
  ].join('\n');
}

function aoVivoArg(v: string): 'mudancas' | 'escuta' {
  if (v !== 'mudancas' && v !== 'escuta') {
    throw new InvalidArgumentError('use "mudancas" (padrão) ou "escuta".');
  }
  return v;
}

interface Opts {
  agentes: number;
  itens: number;
  segundos: number;
  aquecimentoS: number;
  pensarMinMs: number;
  pensarMaxMs: number;
  aoVivo: 'mudancas' | 'escuta';
  conexoesPooler: number;
  semPooler?: boolean;
  workers: number;
  pelosWorkers: number;
  latenciaMs: number;
  banco: string;
  prazoS: number;
  json?: boolean;
}

export function registerBenchFila(program: Command, ctx: () => CliContext): void {
  program
    .command('bench-fila')
    .description(
      'benchmark da fila com uma equipe: agentes com login próprio (via PgBouncer) e workers reais alimentando a fila',
    )
    .option('--agentes <n>', 'agentes trabalhando ao mesmo tempo', positiveInt(500), 50)
    .option('--itens <n>', 'itens que os workers põem na fila', positiveInt(200_000), 20_000)
    .option('--segundos <n>', 'tempo de trabalho dos agentes', positiveInt(3600), 120)
    .option(
      '--aquecimento-s <n>',
      'segundos iniciais sem cronometrar (conexões novas esquentando; no máximo um quarto de --segundos)',
      intRange(0, 3600),
      10,
    )
    .option(
      '--pensar-min-ms <n>',
      'pausa mínima de um agente entre passos',
      intRange(0, 600_000),
      1000,
    )
    .option(
      '--pensar-max-ms <n>',
      'pausa máxima de um agente entre passos',
      intRange(0, 600_000),
      4000,
    )
    .option(
      '--ao-vivo <modo>',
      'fila ao vivo dos desktops: mudancas (registro lido pelo pool) ou escuta (LISTEN, uma sessão direta cada)',
      aoVivoArg,
      'mudancas',
    )
    .option(
      '--conexoes-pooler <n>',
      'max_db_connections do PgBouncer da rodada',
      positiveInt(1000),
      100,
    )
    .option('--sem-pooler', 'os agentes conectam direto no PostgreSQL')
    .option('--workers <n>', 'processos `balcao worker`', positiveInt(16), 2)
    .option(
      '--pelos-workers <n>',
      'itens que os workers põem na fila durante a rodada (o resto de --itens já está na fila no início)',
      positiveInt(200_000),
      1000,
    )
    .option('--latencia-ms <n>', 'latência da API de mensagens falsa', intRange(0, 60_000), 50)
    .option(
      '--banco <nome>',
      'banco de benchmark (recriado a cada rodada)',
      databaseNameArg,
      BENCH_FILA_DB,
    )
    .option('--prazo-s <n>', 'tempo máximo da rodada', positiveInt(86_400), 1800)
    .option('--json', 'saída em JSON')
    .action(async (opts: Opts) => {
      if (opts.pensarMaxMs < opts.pensarMinMs) {
        throw new CliError('--pensar-max-ms não pode ser menor que --pensar-min-ms.', 2);
      }
      const { runQueueBench } = await import('../../bench/fila');
      const c = ctx();
      const s = await benchSettings(c);
      const r = await runQueueBench({
        serverUrl: s.databaseUrl,
        appUrl: s.appDatabaseUrl,
        banco: opts.banco,
        agentes: opts.agentes,
        itens: opts.itens,
        segundos: opts.segundos,
        aquecimentoS: opts.aquecimentoS,
        pensarMinMs: opts.pensarMinMs,
        pensarMaxMs: opts.pensarMaxMs,
        aoVivo: opts.aoVivo,
        conexoesPooler: opts.conexoesPooler,
        semPooler: opts.semPooler === true,
        workers: opts.workers,
        pelosWorkers: opts.pelosWorkers,
        latenciaMs: opts.latenciaMs,
        prazoS: opts.prazoS,
        timeZone: s.timeZone,
        env: c.env,
        onProgress: (t) => {
          if (!opts.json && c.io.isTTY) c.io.err(`  ${t}…`);
        },
      });
      printResult(c, opts.json, r, () => formatFilaBench(r));
      if (!r.ok) {
        if (opts.json) c.exitCode = 1;
        else
          throw new CliError(
            'Invariantes da fila falharam (assunções duplas, ações perdidas ou duplicadas, itens sem conta ou eventos ao vivo perdidos).',
          );
      }
    });
}
