/**
 * `balcao bench` end to end at a tiny size (what CI runs): generates the benchmark database on
 * the test server, runs the whole query mix through both paths and the queue measurement, and
 * prints one JSON object; every query must return identical results on (a) and (b).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { prepareBenchDatabase } from '../../src-main/bench/database';
import { benchParams } from '../../src-main/bench/generate';
import { percentile, type BenchResult } from '../../src-main/bench/run';
import { formatBenchReport } from '../../src-main/cli/commands/bench';
import { queryMix } from '../../src-main/bench/mix';
import { ANALYTICS_ROLE, APP_ROLE } from '../../src-main/db/roles';
import { urlForDatabase, urlForRole } from '../../src-main/db/urls';
import { runCli } from '../support/cli';
import { TEST_ROLE_PASSWORD } from '../support/db';
import { queryOnce } from '../support/pg-server';

const server = inject('pgServerUrl');
const banco = `balcao_bench_t_${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  await queryOnce(server, `DROP DATABASE IF EXISTS ${banco} WITH (FORCE)`);
});

function benchEnv(): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: server,
    APP_DATABASE_URL: urlForRole(urlForDatabase(server, banco), APP_ROLE, TEST_ROLE_PASSWORD),
    ANALYTICS_DATABASE_URL: urlForRole(
      urlForDatabase(server, banco),
      ANALYTICS_ROLE,
      TEST_ROLE_PASSWORD,
    ),
    BALCAO_TIME_ZONE: 'America/Sao_Paulo',
    BALCAO_LOG_LEVEL: 'silent',
  };
}

function run(args: string[]) {
  return runCli(args, benchEnv());
}

describe('balcao bench', () => {
  it('runs the whole mix at a tiny size; (a) and (b) agree on every query', async () => {
    const args = [
      'bench',
      '--rows',
      '6000',
      '--reps',
      '1',
      '--escrita-s',
      '1',
      '--escrita-rodadas',
      '2',
      '--banco',
      banco,
      '--json',
    ];
    const r = await run(args);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    const j = JSON.parse(r.out) as {
      reaproveitado: boolean;
      merchants: { id: number; papel: string; vendas_aprovadas_12_meses: number }[];
      queries: Record<string, unknown>[];
      resumo: {
        todas_iguais: boolean;
        abaixo_de_1x_p95: number;
        abaixo_de_1x_p95_por_caminho: { rollups: number; base: number };
        controle_aa: { consultas: number; abaixo_de_1x_p95: number; ratio_p95_min: number | null };
        piso: {
          consulta: string;
          livro_texto_p95_ms: number;
          transacao_vazia_p50_ms: number;
          transacao_vazia_p95_ms: number;
          razao_teto_p95: number;
        };
      };
      fila: {
        extracoes: number;
        pagina: number;
        pagina_sql_p95_ms: number;
        prazo_p95_ms: number;
        prazo_meio_p95_ms: number;
        prazo_lojista_p95_ms: number;
        contagens_p95_ms: number;
        contagens_iguais: boolean;
      };
      escrita: {
        lote: number;
        lote_ms: { com_rollups: number };
        cargas: {
          nome: string;
          razao: number;
          razoes_por_rodada: number[];
          sem_manutencao: { tps: number; pendentes_no_inicio: number; manutencao_ms: number };
          com_manutencao: {
            tps: number;
            pendentes_no_inicio: number;
            manutencao_ms: number;
            manutencao_dobras: number;
            manutencao_pct: number;
            amostras: number;
            amostras_com_espera_lock: number;
            esperas_por_evento: Record<string, number>;
          };
        }[];
        leituras: {
          consultas: number;
          escritas_durante: number;
          iguais_durante: boolean;
          iguais_depois: boolean;
          diferentes: string[];
        };
      };
      servidor: { name: string; balcao_execucao_ms: number }[];
    };
    expect(j.reaproveitado).toBe(false);
    expect(j.merchants.map((m) => m.papel)).toEqual(['maior', 'mediano', 'pequeno']);
    const [maior, , pequeno] = j.merchants;
    expect(maior!.vendas_aprovadas_12_meses).toBeGreaterThan(pequeno!.vendas_aprovadas_12_meses);
    expect(j.queries).toHaveLength(3 * queryMix('2026-11-30').length);
    for (const q of j.queries) {
      expect(Object.keys(q)).toEqual([
        'name',
        'merchant',
        'base_p50_ms',
        'base_p95_ms',
        'balcao_p50_ms',
        'balcao_p95_ms',
        'ratio_p95',
        'equal',
        // #40.8: the path each query took and the ratio at p50, added after the fields.
        'caminho',
        'ratio_p50',
      ]);
      expect(['rollups', 'base']).toContain(q.caminho);
      expect(q.equal, String(q.name)).toBe(true);
      for (const k of ['base_p50_ms', 'base_p95_ms', 'balcao_p50_ms', 'balcao_p95_ms']) {
        expect(q[k]).toBeGreaterThan(0);
      }
    }
    expect(j.resumo.todas_iguais).toBe(true);
    // #40.8: the losses split by path, and the A/A control runs on exactly the base-table queries.
    const onBase = j.queries.filter((q) => q.caminho === 'base');
    const below = (qs: Record<string, unknown>[]) =>
      qs.filter((q) => (q.ratio_p95 as number) < 1).length;
    expect(j.resumo.abaixo_de_1x_p95_por_caminho).toEqual({
      rollups: below(j.queries.filter((q) => q.caminho === 'rollups')),
      base: below(onBase),
    });
    expect(j.resumo.abaixo_de_1x_p95).toBe(below(j.queries));
    expect(j.resumo.controle_aa.consultas).toBe(onBase.length);
    expect(j.resumo.controle_aa.abaixo_de_1x_p95).toBeLessThanOrEqual(onBase.length);
    if (onBase.length) expect(j.resumo.controle_aa.ratio_p95_min).toBeGreaterThan(0);
    else expect(j.resumo.controle_aa.ratio_p95_min).toBeNull();
    // The floor is measured under the biggest merchant's year-long query with the cheapest
    // textbook p95 (the one that binds the ratio), and the ceiling is that p95 over the floor's.
    const p = j.resumo.piso;
    const anuais = j.queries.filter(
      (q) => q.merchant === maior!.id && String(q.name).includes('·12_meses·'),
    );
    const cheapest = Math.min(...anuais.map((q) => Number(q.base_p95_ms)));
    expect(anuais.find((q) => q.name === p.consulta)?.base_p95_ms).toBe(cheapest);
    expect(p.transacao_vazia_p50_ms).toBeGreaterThan(0);
    expect(p.transacao_vazia_p95_ms).toBeGreaterThanOrEqual(p.transacao_vazia_p50_ms);
    expect(
      Math.abs((p.razao_teto_p95 * p.transacao_vazia_p95_ms) / p.livro_texto_p95_ms - 1),
    ).toBeLessThan(0.05);
    // The human report says the same, in pt-BR.
    const ms2 = (n: number) =>
      n.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(formatBenchReport(j as unknown as BenchResult)).toContain(
      `Piso: uma transação vazia do lojista (abertura + SELECT 1, uma ida e volta) logo após o livro-texto de ${p.consulta} (p95 ${ms2(p.livro_texto_p95_ms)} ms) leva p50 ${ms2(p.transacao_vazia_p50_ms)} / p95 ${ms2(p.transacao_vazia_p95_ms)} ms: nenhuma resposta passaria de ${ms2(p.razao_teto_p95)}× ali.`,
    );
    expect(j.fila).toMatchObject({ extracoes: 300, pagina: 50 });
    expect(j.fila.pagina_sql_p95_ms).toBeGreaterThan(0);
    // The screens' default order (#39.2) is timed too: first page, middle, one merchant.
    expect(j.fila.prazo_p95_ms).toBeGreaterThan(0);
    expect(j.fila.prazo_meio_p95_ms).toBeGreaterThan(0);
    expect(j.fila.prazo_lojista_p95_ms).toBeGreaterThan(0);
    // The maintained counters (0740) agree with counting the rows.
    expect(j.fila.contagens_iguais).toBe(true);
    expect(j.fila.contagens_p95_ms).toBeGreaterThan(0);
    expect(j.escrita.lote).toBe(1000);
    expect(j.servidor).toHaveLength(j.queries.length);
    for (const x of j.servidor) expect(x.balcao_execucao_ms).toBeGreaterThanOrEqual(0);
    expect(j.escrita.lote_ms.com_rollups).toBeGreaterThan(0);
    // Both writer workloads, maintenance off and on; reads while they ran and right after.
    expect(j.escrita.cargas.map((c) => c.nome)).toEqual([
      'autocommit_50_lojistas',
      'transacao_20ms_1_lojista',
    ]);
    for (const c of j.escrita.cargas) {
      expect(c.sem_manutencao.tps).toBeGreaterThan(0);
      expect(c.com_manutencao.tps).toBeGreaterThan(0);
      expect(c.com_manutencao.amostras).toBeGreaterThan(0);
      expect(c.razao).toBeGreaterThan(0);
      // Each run starts folded: the maintained run does not pay for the unmaintained run's rows.
      expect(c.sem_manutencao.pendentes_no_inicio).toBe(0);
      expect(c.com_manutencao.pendentes_no_inicio).toBe(0);
      // Two rounds (ABBA): one ratio each; the fold ran during the maintained runs only.
      expect(c.razoes_por_rodada).toHaveLength(2);
      expect(c.sem_manutencao.manutencao_ms).toBe(0);
      expect(c.com_manutencao.manutencao_dobras).toBeGreaterThan(0);
      expect(c.com_manutencao.manutencao_ms).toBeGreaterThan(0);
      expect(c.com_manutencao.manutencao_pct).toBeGreaterThan(0);
      expect(c.com_manutencao.manutencao_pct).toBeLessThan(100);
      // Every sample with a lock wait names what was waited on (row locks vs table extension).
      const porEvento = Object.values(c.com_manutencao.esperas_por_evento);
      const comEspera = c.com_manutencao.amostras_com_espera_lock;
      expect(porEvento.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(comEspera);
      for (const n of porEvento) expect(n).toBeLessThanOrEqual(comEspera);
    }
    expect(j.escrita.leituras).toMatchObject({
      consultas: j.queries.length,
      iguais_durante: true,
      iguais_depois: true,
      diferentes: [],
    });
    expect(j.escrita.leituras.escritas_durante).toBeGreaterThan(0);

    // Balcão's path alone, on the same (reused) database.
    const so = await run([
      'bench',
      '--so-balcao',
      '--rows',
      '6000',
      '--reps',
      '1',
      '--banco',
      banco,
      '--json',
    ]);
    expect(so.code).toBe(0);
    const sj = JSON.parse(so.out) as { queries: { balcao_p95_ms: number }[] };
    expect(sj.queries).toHaveLength(j.queries.length);
    expect(sj.queries.every((q) => q.balcao_p95_ms > 0)).toBe(true);

    // Same parameters: the database is reused, not generated again.
    const again = await prepareBenchDatabase(
      server,
      banco,
      benchParams(6000, 'America/Sao_Paulo'),
      {
        now: new Date(),
      },
    );
    expect(again.reused).toBe(true);
    const other = await prepareBenchDatabase(
      server,
      banco,
      benchParams(6000, 'America/Sao_Paulo', 7),
      {
        now: new Date(),
        onProgress: () => undefined,
      },
    );
    expect(other.reused).toBe(false);
    expect(other.meta.seed).toBe(7);

    // On a terminal every phase says what it does as it starts (#41.9): generation (the seed
    // changed back, so it generates again), the queries, and each measurement after them.
    const tty = await runCli(
      [
        'bench',
        '--rows',
        '6000',
        '--reps',
        '1',
        '--escrita-s',
        '1',
        '--escrita-rodadas',
        '1',
        '--banco',
        banco,
      ],
      benchEnv(),
      { isTTY: true },
    );
    expect(tty.code).toBe(0);
    const fases = [
      /^ {2}gerando as transações: \d+% \(\d+ s\)$/,
      /^ {2}criando os índices… \(\d+ s\)$/,
      /^ {2}calculando os rollups… \(\d+ s\)$/,
      /^Banco balcao_bench_t_\w+ gerado em [\d.]+ s\.$/,
      /^ {2}consolidando os rollups… /,
      /^ {2}consultas: \d+ × 1 repetição, nos dois caminhos… /,
      /^ {2}\[1\/\d+\] /,
      /^ {2}medindo o piso \(transação vazia\)… /,
      /^ {2}fila de revisão: contagens e páginas… /,
      /^ {2}custo de escrita dos rollups… /,
      /^ {2}escritores concorrentes: 1 rodada de 1 s por carga… /,
      /^ {2}leituras durante e depois das escritas… /,
    ];
    const lines = tty.err.split('\n').map((l) => (l.startsWith('  ') ? l : l.trimStart()));
    let at = 0;
    for (const f of fases) {
      const i = lines.findIndex((l, k) => k >= at && f.test(l));
      expect(i, `${String(f)} depois da linha ${at} em:\n${tty.err}`).toBeGreaterThanOrEqual(at);
      at = i + 1;
    }
  }, 300_000);

  it('nearest-rank percentiles', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(10);
    expect(percentile(xs, 95)).toBe(19);
    expect(percentile([7], 95)).toBe(7);
  });
});
