import type { Command } from 'commander';
import { contagem } from '@shared/plural';
import { BENCH_FULL_ROWS } from '../../bench/constants';
import type { BenchResult } from '../../bench/run';
import type { CliContext } from '../context';
import { CliError } from '../io';
import { databaseNameArg, intRange, positiveInt } from '../parse';
import { printResult } from '../output';
import { benchSettings } from './bench-server';

function ms(n: number): string {
  return n.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** The human report: one line per query, then the summary and the queue. */
/** The data generator's phases, as a person reads them. */
const ETAPAS_GERACAO: Record<string, string> = {
  transacoes: 'gerando as transações',
  extracoes: 'gerando os pedidos da fila',
  indices: 'criando os índices',
  rollups: 'calculando os rollups',
  vacuum: 'VACUUM ANALYZE',
};

export function formatBenchReport(r: BenchResult): string {
  const lines: string[] = [];
  lines.push(
    `Benchmark: ${r.linhas.toLocaleString('pt-BR')} transações, ${r.lojistas.toLocaleString('pt-BR')} lojistas, hoje ${r.hoje} (${r.fuso}), ${contagem(r.repeticoes, 'repetição', 'repetições')} por consulta.`,
  );
  for (const m of r.merchants) {
    lines.push(
      `  ${m.papel}: lojista ${m.id}, ${m.vendas_aprovadas_12_meses.toLocaleString('pt-BR')} vendas aprovadas em 12 meses`,
    );
  }
  lines.push('');
  lines.push(
    `${'consulta'.padEnd(78)} ${'(a) p50'.padStart(10)} ${'(a) p95'.padStart(10)} ${'(b) p50'.padStart(9)} ${'(b) p95'.padStart(9)} ${'(a)/(b)'.padStart(9)}  ${'caminho'.padEnd(7)}  iguais`,
  );
  for (const q of r.queries) {
    lines.push(
      `${q.name.padEnd(78)} ${ms(q.base_p50_ms).padStart(10)} ${ms(q.base_p95_ms).padStart(10)} ${ms(q.balcao_p50_ms).padStart(9)} ${ms(q.balcao_p95_ms).padStart(9)} ${`${ms(q.ratio_p95)}×`.padStart(9)}  ${q.caminho.padEnd(7)}  ${q.equal ? 'sim' : 'NÃO'}`,
    );
  }
  lines.push('');
  lines.push(
    '(a) = desenho de livro-texto: a mesma SQL sobre transacoes com o índice (merchant_id, status, aprovada_em).',
  );
  lines.push(
    '(b) = caminho do Balcão: valida, compila, transação somente leitura do lojista, executa (rollups ou tabela base, o que ler menos), formata.',
  );
  lines.push(
    `Caminho do Balcão: rollups em ${contagem(r.resumo.caminhos.rollups, 'consulta', 'consultas')}, tabela base em ${contagem(r.resumo.caminhos.base, 'consulta', 'consultas')}; abaixo de 1,00× no p95: ${contagem(r.resumo.abaixo_de_1x_p95, 'consulta', 'consultas')} (${r.resumo.abaixo_de_1x_p95_por_caminho.rollups} nos rollups, ${r.resumo.abaixo_de_1x_p95_por_caminho.base} na tabela base).`,
  );
  const aa = r.resumo.controle_aa;
  if (aa.consultas > 0) {
    lines.push(
      `Na tabela base o Balcão envia a mesma SQL do livro-texto. Controle A/A (o livro-texto contra ele mesmo, nas mesmas ${contagem(aa.consultas, 'consulta', 'consultas')}): abaixo de 1,00× no p95 em ${contagem(aa.abaixo_de_1x_p95, 'consulta', 'consultas')}, menor razão ${ms(aa.ratio_p95_min ?? 0)}× — o ruído desta máquina.`,
    );
  }
  lines.push(
    `Resultados idênticos em todas as consultas: ${r.resumo.todas_iguais ? 'sim' : 'NÃO'}. Maior p95 do Balcão: ${ms(r.resumo.balcao_p95_max_ms)} ms. Menor (a)/(b) no ano do maior lojista: ${ms(r.resumo.maior_anual_ratio_p95_min)}×.`,
  );
  const piso = r.resumo.piso;
  if (piso) {
    lines.push(
      `Piso: uma transação vazia do lojista (abertura + SELECT 1, uma ida e volta) logo após o livro-texto de ${piso.consulta} (p95 ${ms(piso.livro_texto_p95_ms)} ms) leva p50 ${ms(piso.transacao_vazia_p50_ms)} / p95 ${ms(piso.transacao_vazia_p95_ms)} ms: nenhuma resposta passaria de ${ms(piso.razao_teto_p95)}× ali.`,
    );
  }
  const f = r.fila;
  lines.push(
    `Fila de revisão (${f.extracoes.toLocaleString('pt-BR')} extrações, ${f.abertas.toLocaleString('pt-BR')} abertas), página de ${f.pagina}: lista completa p50 ${ms(f.lista_p50_ms)} / p95 ${ms(f.lista_p95_ms)} ms; no meio da fila p50 ${ms(f.lista_meio_p50_ms)} / p95 ${ms(f.lista_meio_p95_ms)} ms; só a página (keyset) p50 ${ms(f.pagina_sql_p50_ms)} / p95 ${ms(f.pagina_sql_p95_ms)} ms.`,
  );
  lines.push(
    `Fila por prazo (a ordem padrão): primeira página p50 ${ms(f.prazo_p50_ms)} / p95 ${ms(f.prazo_p95_ms)} ms; no meio da fila p50 ${ms(f.prazo_meio_p50_ms)} / p95 ${ms(f.prazo_meio_p95_ms)} ms; do lojista com mais pedidos p50 ${ms(f.prazo_lojista_p50_ms)} / p95 ${ms(f.prazo_lojista_p95_ms)} ms.`,
  );
  lines.push(
    `Contagens por status das abertas: contadores mantidos p50 ${ms(f.contagens_p50_ms)} / p95 ${ms(f.contagens_p95_ms)} ms × contando as linhas p50 ${ms(f.contagem_linhas_p50_ms)} / p95 ${ms(f.contagem_linhas_p95_ms)} ms; iguais: ${f.contagens_iguais ? 'sim' : 'NÃO'}. Relatório "Falhas de validação" de 30 dias: p50 ${ms(f.relatorio_30d_p50_ms)} / p95 ${ms(f.relatorio_30d_p95_ms)} ms.`,
  );
  const exec = r.servidor.map((x) => x.balcao_execucao_ms);
  lines.push(
    `Execução no servidor da SQL do Balcão (EXPLAIN ANALYZE, melhor de 3): máx. ${ms(Math.max(...exec))} ms; ${r.servidor
      .filter((x) => x.name.startsWith('maior'))
      .map((x) => `${x.name.replace('maior·', '')} ${ms(x.balcao_execucao_ms)}`)
      .join('; ')} (maior lojista).`,
  );
  const w = r.escrita;
  const porEvento = (e: Record<string, number>) => {
    const xs = Object.entries(e).map(([k, n]) => `${k} ${n}`);
    return xs.length ? ` (${xs.join(', ')})` : '';
  };
  for (const c of w.cargas ?? []) {
    const fmt = (x: typeof c.sem_manutencao) =>
      `${ms(x.tps)} tps, média ${ms(x.media_ms)} ms, p95 ${ms(x.p95_ms)} ms, ${x.amostras_com_espera_lock}/${x.amostras} amostras com espera por lock${porEvento(x.esperas_por_evento)}`;
    lines.push(
      `Escritores ${c.nome}: sem manutenção ${fmt(c.sem_manutencao)}; com manutenção ${fmt(c.com_manutencao)}; razão ${ms(c.razao)}× (por rodada: ${c.razoes_por_rodada.map((x) => ms(x)).join(' / ')}); a consolidação rodou ${contagem(c.com_manutencao.manutencao_dobras, 'vez', 'vezes')}, ${ms(c.com_manutencao.manutencao_ms)} ms (${ms(c.com_manutencao.manutencao_pct)}% do tempo).`,
    );
  }
  if (w.leituras) {
    const l = w.leituras;
    lines.push(
      `Leituras durante a escrita (${l.escritas_durante.toLocaleString('pt-BR')} escritas): ${l.consultas} consultas, mesmo snapshot iguais: ${l.iguais_durante ? 'sim' : 'NÃO'}; Balcão p50 máx. ${ms(l.balcao_p50_max_ms)} / p95 máx. ${ms(l.balcao_p95_max_ms)} ms; logo depois iguais: ${l.iguais_depois ? 'sim' : 'NÃO'}.`,
    );
  }
  lines.push(
    `Custo para quem escreve (triggers de ajuste desligados → ligados; INSERT não tem trigger): INSERT unitário ${ms(w.insercao_unitaria_ms.sem_rollups)} → ${ms(w.insercao_unitaria_ms.com_rollups)} ms; estorno unitário ${ms(w.estorno_unitario_ms.sem_rollups)} → ${ms(w.estorno_unitario_ms.com_rollups)} ms; lote de ${w.lote.toLocaleString('pt-BR')} linhas ${ms(w.lote_ms.sem_rollups)} → ${ms(w.lote_ms.com_rollups)} ms.`,
  );
  return lines.join('\n');
}

interface BenchOpts {
  soBalcao?: boolean;
  escritaS: number;
  escritaRodadas: number;
  rows: number;
  reps: number;
  regenerar?: boolean;
  banco?: string;
  json?: boolean;
}

export function registerBench(program: Command, ctx: () => CliContext): void {
  program
    .command('bench')
    .description(
      'benchmark das perguntas de vendas: desenho de livro-texto × caminho do Balcão (gera ou reaproveita o banco balcao_bench)',
    )
    .option(
      '--rows <n>',
      'transações geradas (lojistas e fila escalam junto)',
      positiveInt(100_000_000),
      BENCH_FULL_ROWS,
    )
    .option(
      '--reps <n>',
      'repetições medidas por consulta (após um aquecimento)',
      positiveInt(1000),
      10,
    )
    .option(
      '--so-balcao',
      'mede só o caminho do Balcão (sem a consulta de livro-texto entre as repetições)',
    )
    .option(
      '--escrita-s <n>',
      'segundos de cada rodada das cargas de escrita (0 = sem a seção de escrita)',
      intRange(0, 600),
      10,
    )
    .option(
      '--escrita-rodadas <n>',
      'rodadas de cada carga de escrita, manutenção desligada e ligada em ordem ABBA (a média é o resultado)',
      intRange(1, 20),
      4,
    )
    .option('--regenerar', 'gera os dados de novo mesmo que o banco já exista')
    .option(
      '--banco <nome>',
      'nome do banco de benchmark (padrão: balcao_bench, ou balcao_bench_N para --rows N)',
      databaseNameArg,
    )
    .option('--json', 'saída em JSON')
    .action(async (opts: BenchOpts) => {
      const { prepareBenchDatabase, benchDatabaseName } = await import('../../bench/database');
      const { benchParams } = await import('../../bench/generate');
      const { runBalcaoOnly, runBench } = await import('../../bench/run');
      const { ANALYTICS_ROLE, APP_ROLE } = await import('../../db/roles');
      const { createPool } = await import('../../db/pool');
      const { analyticsPrepares } = await import('../../db/prepared');
      const { urlForDatabase, urlForRole } = await import('../../db/urls');
      const c = ctx();
      const s = await benchSettings(c);
      const name = opts.banco ?? benchDatabaseName(opts.rows);
      const t0 = performance.now();
      let last = '';
      const progress = (etapa: string, done?: number, total?: number) => {
        if (opts.json || !c.io.isTTY) return;
        const nome = ETAPAS_GERACAO[etapa] ?? etapa;
        const line =
          done !== undefined && total
            ? `  ${nome}: ${Math.floor((done / total) * 100)}%`
            : `  ${nome}…`;
        if (line === last) return;
        last = line;
        c.io.err(`${line} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      };
      const { mapDbError } = await import('../../db/errors');
      // A server that is down or refuses the login: the pt-BR database message, not a driver's.
      const prepared = await prepareBenchDatabase(
        s.databaseUrl,
        name,
        benchParams(opts.rows, s.timeZone),
        { now: c.clock.now(), force: opts.regenerar === true, onProgress: progress },
      ).catch((e: unknown) => {
        throw mapDbError(e);
      });
      const geracaoS = (performance.now() - t0) / 1000;
      if (!opts.json) {
        c.io.err(
          prepared.reused
            ? `Banco ${name} reaproveitado (gerado em ${prepared.meta.agora}).`
            : `Banco ${name} gerado em ${geracaoS.toFixed(1)} s.`,
        );
      }
      const roleUrl = (explicit: string | undefined, role: string) =>
        explicit ? urlForDatabase(explicit, name) : urlForRole(prepared.url, role);
      const pools = {
        admin: createPool(prepared.url, { max: 2, applicationName: 'balcao-bench-admin' }),
        app: createPool(roleUrl(s.appDatabaseUrl, APP_ROLE), {
          max: 2,
          applicationName: 'balcao-bench-app',
        }),
        analytics: createPool(roleUrl(s.analyticsDatabaseUrl, ANALYTICS_ROLE), {
          max: 2,
          applicationName: 'balcao-bench-analytics',
          // As the product's analytics pool (db/connect.ts): both paths below run on it.
          prepare: analyticsPrepares(s),
        }),
      };
      try {
        if (opts.soBalcao) {
          const r = await runBalcaoOnly(pools, prepared.meta, {
            reps: opts.reps,
            timeoutMs: s.queryTimeoutMs,
          });
          printResult(c, opts.json, { banco: name, ...r }, () =>
            [
              ...r.queries.map(
                (q) =>
                  `${q.name.padEnd(78)} p50 ${ms(q.balcao_p50_ms).padStart(8)}  p95 ${ms(q.balcao_p95_ms).padStart(8)}`,
              ),
              `Maior p95 do Balcão: ${ms(r.balcao_p95_max_ms)} ms (${contagem(r.repeticoes, 'repetição', 'repetições')}).`,
            ].join('\n'),
          );
          return;
        }
        const result = await runBench(pools, prepared.meta, {
          reps: opts.reps,
          timeoutMs: s.queryTimeoutMs,
          escritaS: opts.escritaS,
          escritaRodadas: opts.escritaRodadas,
          adminUrl: prepared.url,
          onProgress: (done, total, q) => {
            if (!opts.json && c.io.isTTY) c.io.err(`  [${done}/${total}] ${q}`);
          },
          onPhase: (t) => progress(t),
        });
        printResult(
          c,
          opts.json,
          {
            banco: name,
            reaproveitado: prepared.reused,
            geracao_s: Number(geracaoS.toFixed(1)),
            ...result,
          },
          () => formatBenchReport(result),
        );
        // One JSON object on stdout either way; the exit code says it too.
        if (!result.resumo.todas_iguais) {
          if (opts.json) c.exitCode = 1;
          else {
            throw new CliError(
              'Resultados diferentes entre (a) e (b) em alguma consulta (veja "equal" e escrita.leituras).',
            );
          }
        }
      } finally {
        await Promise.allSettled([pools.admin.end(), pools.app.end(), pools.analytics.end()]);
      }
    });
}
