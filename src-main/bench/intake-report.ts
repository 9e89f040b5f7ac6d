/**
 * The books of a `balcao bench-intake` run, checked against the database:
 * - throughput and enqueue-to-outcome latency (mensagens.enfileirada_em → processada_em);
 * - API calls per message (HTTP requests, and answers delivered = attempts paid);
 * - duplicates (a message with more than one extraction, charge or question) and lost messages
 *   (not concluded when the run ends);
 * - attempts paid twice, split into the two possible causes: an attempt asked again although its
 *   answer was already stored (`repetidas_apos_gravar`: the resume logic failing — must be 0),
 *   and an answer delivered to a worker that died (or lost its lease) before storing it
 *   (`respostas_nao_gravadas`: the unavoidable window of a kill between the bytes arriving
 *   and the INSERT committing);
 * - Balcão's own time per message: the job's time minus the time waiting for a slot or the
 *   shared pause and the time inside the model calls (from the workers' 'intake: tempos'
 *   lines), plus the enqueue's share.
 */
import type pg from 'pg';
import type { ApiCall } from './fake-messages-api';
import type { IntakeBenchOptions } from './types';
import type { JobTimes } from './intake-workers';
import { benchMessages } from './intake-messages';
import { percentile } from './types';

export interface IntakeBenchResult {
  banco: string;
  mensagens: number;
  workers: number;
  concorrencia_por_worker: number;
  em_voo_max: number;
  matar: boolean;
  api: {
    latencia_ms: number;
    jitter_ms: number;
    taxa_429: number;
    taxa_5xx: number;
    retry_after_s: number;
  };
  duracao_s: number;
  vazao_msg_s: number;
  /** The in-flight cap's ceiling: cap ÷ mean slot time per message (API time incl. retries). */
  limite_em_voo_msg_s: number;
  /** Share of the cap's slot-time used over the run (100% = bound only by the cap). */
  uso_das_vagas_pct: number;
  latencia_ms: { p50: number; p95: number; max: number };
  chamadas_api_por_mensagem: number;
  tentativas_pagas_por_mensagem: number;
  resultados: Record<string, number>;
  resultados_esperados: Record<string, number>;
  duplicadas: number;
  perdidas: number;
  /** Messages concluded before an earlier-arrived message of the same merchant (must be 0). */
  fora_de_ordem: number;
  pagas_duas_vezes: number;
  repetidas_apos_gravar: number;
  respostas_nao_gravadas: number;
  chamadas_abandonadas: number;
  pico_em_voo: number;
  /** Jobs pg-boss handed out again (a dead worker's, expired; or a failed try). */
  jobs_retomados: number;
  pausas_429: number;
  respostas_429: number;
  respostas_5xx: number;
  sobrecarga_ms: {
    por_mensagem: number;
    job_p50: number;
    job_p95: number;
    job_max: number;
    enfileirar_por_mensagem: number;
    jobs_medidos: number;
    /** CPU of the worker processes per job (growth of their CPU time between their jobs). */
    cpu_worker_por_job: number;
  };
  kill: {
    pid: number;
    aos_s: number;
    concluidas_antes: number;
    requisicoes_em_voo_no_total: number;
  } | null;
  ok: boolean;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

const EXPECTED: Record<string, string> = {
  limpa: 'cobranca_criada',
  corrigida: 'cobranca_criada',
  incompleta: 'aguardando_lojista',
  alerta: 'fila',
  falha: 'fila',
};

export async function intakeReport(
  admin: pg.Pool,
  run: {
    opts: IntakeBenchOptions;
    calls: readonly ApiCall[];
    pico: number;
    times: readonly JobTimes[];
    enqueueMs: number;
    kill: IntakeBenchResult['kill'];
    t0: number;
  },
): Promise<IntakeBenchResult> {
  const o = run.opts;
  const n = o.mensagens;
  const TAG = String.raw`substring(%s from '\[bench:(\d+)\]')::int`;
  const tag = (col: string) => TAG.replace('%s', col);

  const msgs = await admin.query<{
    id: number;
    k: number;
    estado: string;
    resultado: string | null;
    lat_ms: number | null;
    fim_ms: number | null;
  }>(
    `SELECT id, ${tag('texto')} AS k, estado, resultado,
            extract(epoch FROM processada_em - enfileirada_em) * 1000 AS lat_ms,
            extract(epoch FROM processada_em) * 1000 AS fim_ms
       FROM mensagens`,
  );
  const done = msgs.rows.filter((m) => m.estado === 'concluida');
  const lat = done.map((m) => Number(m.lat_ms)).sort((a, b) => a - b);
  const lastEnd = Math.max(run.t0, ...done.map((m) => Number(m.fim_ms)));
  const duracaoMs = Math.max(1, lastEnd - run.t0);

  const resultados: Record<string, number> = {};
  for (const m of done) resultados[m.resultado!] = (resultados[m.resultado!] ?? 0) + 1;
  const esperados: Record<string, number> = {};
  const { charges } = benchMessages(n, '2026-01-01');
  for (const c of charges.values()) {
    const r = EXPECTED[c.kind]!;
    esperados[r] = (esperados[r] ?? 0) + 1;
  }
  let resultadosCertos = true;
  for (const m of done) {
    const c = charges.get(m.k);
    if (!c || EXPECTED[c.kind] !== m.resultado) resultadosCertos = false;
  }

  // Duplicates: more than one extraction, charge or question for one message.
  const dup = await admin.query<{ n: number }>(
    `SELECT count(DISTINCT k)::int AS n FROM (
       SELECT ${tag('e.texto')} AS k FROM extracoes e GROUP BY 1 HAVING count(*) > 1
       UNION ALL
       SELECT ${tag('e.texto')} FROM cobrancas c JOIN extracoes e ON e.id = c.extracao_id
        GROUP BY 1 HAVING count(*) > 1
       UNION ALL
       SELECT ${tag('m.texto')} FROM mensagens_saida s JOIN mensagens m ON m.id = s.origem
        GROUP BY 1 HAVING count(*) > 1) d`,
  );

  // Attempts paid vs attempts stored, per (message, attempt number).
  const stored = await admin.query<{ k: number; numero: number; message_id: string | null }>(
    `SELECT ${tag('m.texto')} AS k, t.numero, t.message_id
       FROM intake_tentativas t JOIN mensagens m ON m.id = t.mensagem`,
  );
  const storedBy = new Map(stored.rows.map((s) => [`${s.k}:${s.numero}`, s.message_id]));
  const paid = new Map<string, string[]>();
  for (const c of run.calls) {
    if (c.status !== 200 || !c.entregue || c.k === null) continue;
    const key = `${c.k}:${c.tentativa}`;
    const list = paid.get(key) ?? [];
    list.push(c.message_id ?? '');
    paid.set(key, list);
  }
  let pagasDuasVezes = 0;
  let repetidas = 0;
  let naoGravadas = 0;
  for (const [key, ids] of paid) {
    pagasDuasVezes += ids.length - 1;
    const kept = storedBy.get(key);
    // The stored answer must be the last one paid: an earlier stored answer asked again is a bug.
    const at = kept === undefined ? -1 : ids.indexOf(kept ?? '');
    if (at >= 0 && at < ids.length - 1) repetidas += ids.length - 1 - at;
    naoGravadas += at >= 0 ? at : ids.length;
  }

  const totalPaid = [...paid.values()].reduce((a, l) => a + l.length, 0);
  const benchCalls = run.calls.filter((c) => c.k !== null);
  const apiMsPorMensagem = new Map<number, number>();
  for (const t of run.times) {
    apiMsPorMensagem.set(t.mensagem, (apiMsPorMensagem.get(t.mensagem) ?? 0) + t.api_ms);
  }
  const apiTotal = [...apiMsPorMensagem.values()].reduce((a, b) => a + b, 0);
  const apiMedio = apiMsPorMensagem.size ? apiTotal / apiMsPorMensagem.size : 0;
  const proprio = run.times.map((t) => t.proprio_ms).sort((a, b) => a - b);
  const proprioTotal = proprio.reduce((a, b) => a + b, 0);
  // CPU per job: each worker's CPU growth from its first to its last job line, over the jobs between.
  const byPid = new Map<number, { first: number; last: number; jobs: number }>();
  for (const t of run.times) {
    const b = byPid.get(t.pid);
    if (!b) byPid.set(t.pid, { first: t.cpu_ms, last: t.cpu_ms, jobs: 0 });
    else {
      b.last = t.cpu_ms;
      b.jobs++;
    }
  }
  let cpu = 0;
  let cpuJobs = 0;
  for (const b of byPid.values()) {
    cpu += b.last - b.first;
    cpuJobs += b.jobs;
  }
  const retomados = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT retry_count FROM pgboss.job WHERE name = 'intake'
       UNION ALL SELECT retry_count FROM pgboss.archive WHERE name = 'intake') j
      WHERE retry_count > 0`,
  );
  const pausas = await admin.query<{ pausas: number }>('SELECT pausas FROM intake_limites');
  const perdidas = n - done.length;
  const duplicadas = dup.rows[0]!.n;
  // A merchant's messages go one at a time in arrival order: each concluded after the one before.
  const ordem = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT processada_em < lag(processada_em) OVER (
                PARTITION BY merchant_id ORDER BY recebida_em, id) AS fora
         FROM mensagens WHERE estado = 'concluida') x
      WHERE fora`,
  );
  const foraDeOrdem = ordem.rows[0]!.n;
  const vazao = done.length / (duracaoMs / 1000);
  return {
    banco: o.banco,
    mensagens: n,
    workers: o.workers,
    concorrencia_por_worker: o.concorrencia,
    em_voo_max: o.emVoo,
    matar: o.matar,
    api: {
      latencia_ms: o.latenciaMs,
      jitter_ms: o.jitterMs,
      taxa_429: o.taxa429,
      taxa_5xx: o.taxa5xx,
      retry_after_s: o.retryAfterS,
    },
    duracao_s: r2(duracaoMs / 1000),
    vazao_msg_s: r2(vazao),
    limite_em_voo_msg_s: apiMedio ? r2((o.emVoo * 1000) / apiMedio) : 0,
    uso_das_vagas_pct: r2((apiTotal / (o.emVoo * duracaoMs)) * 100),
    latencia_ms: {
      p50: r2(percentile(lat, 50)),
      p95: r2(percentile(lat, 95)),
      max: r2(lat[lat.length - 1] ?? 0),
    },
    chamadas_api_por_mensagem: r2(benchCalls.length / n),
    tentativas_pagas_por_mensagem: r2(totalPaid / n),
    resultados,
    resultados_esperados: esperados,
    duplicadas,
    perdidas,
    fora_de_ordem: foraDeOrdem,
    pagas_duas_vezes: pagasDuasVezes,
    repetidas_apos_gravar: repetidas,
    respostas_nao_gravadas: naoGravadas,
    chamadas_abandonadas: run.calls.filter((c) => c.abandonada).length,
    pico_em_voo: run.pico,
    jobs_retomados: retomados.rows[0]!.n,
    pausas_429: pausas.rows[0]?.pausas ?? 0,
    respostas_429: run.calls.filter((c) => c.status === 429).length,
    respostas_5xx: run.calls.filter((c) => c.status >= 500).length,
    sobrecarga_ms: {
      por_mensagem: r2(
        (done.length ? proprioTotal / done.length : 0) + run.enqueueMs / Math.max(1, n),
      ),
      job_p50: r2(percentile(proprio, 50)),
      job_p95: r2(percentile(proprio, 95)),
      job_max: r2(proprio[proprio.length - 1] ?? 0),
      enfileirar_por_mensagem: r2(run.enqueueMs / Math.max(1, n)),
      jobs_medidos: proprio.length,
      cpu_worker_por_job: cpuJobs ? r2(cpu / cpuJobs) : 0,
    },
    kill: run.kill,
    ok:
      duplicadas === 0 &&
      perdidas === 0 &&
      foraDeOrdem === 0 &&
      repetidas === 0 &&
      resultadosCertos &&
      run.pico <= o.emVoo,
  };
}
