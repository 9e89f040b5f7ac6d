/**
 * `balcao bench-intake`: the intake under load, end to end and for real — a marked benchmark
 * database, the fake Messages API over HTTP (fake-messages-api.ts), W real `balcao worker`
 * processes, N messages accepted through the same `enqueueMessages` as `balcao enqueue`; with
 * `--matar`, one worker is `kill -9`ed mid-run and started again. Then the books are checked
 * against the database: every message has exactly one outcome, nothing was lost, and no
 * attempt whose answer was stored was paid for again (see intake-report.ts).
 */
import { withClient } from '../db/client';
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { APP_ROLE } from '../db/roles';
import { urlForDatabase, urlForRole } from '../db/urls';
import { enqueueMessages } from '../intake/enqueue';
import { startBoss } from '../intake/jobs';
import { BENCH_MARK, isBenchMarked } from './generate';
import { startFakeApi } from './fake-messages-api';
import { BENCH_MERCHANTS, benchMessages } from './intake-messages';
import { spawnWorker, type BenchWorker, type JobTimes } from './intake-workers';
import { intakeReport, type IntakeBenchResult } from './intake-report';

import { BENCH_INTAKE_DB } from './constants';
import type { IntakeBenchOptions } from './types';

export type { IntakeBenchOptions } from './types';
export { BENCH_INTAKE_DB };

/** A fresh, migrated, marked database; refuses one the bench did not create. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  await withClient(serverUrl, async (c) => {
    const r = await c.query<{ c: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1",
      [name],
    );
    const found = r.rows[0];
    if (found && !isBenchMarked(found.c)) {
      throw new AppError(
        'conflito',
        `O banco "${name}" já existe e não foi criado pelo benchmark; o bench só apaga e recria bancos que ele mesmo criou. Escolha outro nome em --banco (ex.: balcao_bench_intake_teste).`,
      );
    }
    const id = c.escapeIdentifier(name);
    if (found) await c.query(`DROP DATABASE ${id} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${id}`);
    await c.query(
      `COMMENT ON DATABASE ${id} IS ${c.escapeLiteral(JSON.stringify({ ...BENCH_MARK, intake: true }))}`,
    );
    await c.query(`ALTER DATABASE ${id} SET jit = off`);
  });
  const url = urlForDatabase(serverUrl, name);
  await migrate(url);
  await withClient(url, (c) =>
    c.query(
      `INSERT INTO merchants (id, nome)
       SELECT i, 'Loja de benchmark ' || i FROM generate_series(1, $1::int) AS i`,
      [BENCH_MERCHANTS],
    ),
  );
  return url;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runIntakeBench(o: IntakeBenchOptions): Promise<IntakeBenchResult> {
  const say = o.onProgress ?? (() => undefined);
  say(`preparando o banco ${o.banco}`);
  const adminUrl = await freshDatabase(o.serverUrl, o.banco);
  const appUrl = o.appUrl ? urlForDatabase(o.appUrl, o.banco) : urlForRole(adminUrl, APP_ROLE);
  const today = localDate(new Date(), o.timeZone);
  const { msgs, charges } = benchMessages(o.mensagens, today);
  const api = await startFakeApi({
    charges,
    latenciaMs: o.latenciaMs,
    jitterMs: o.jitterMs,
    taxa429: o.taxa429,
    taxa5xx: o.taxa5xx,
    retryAfterS: o.retryAfterS,
    seed: 42,
  });
  const times: JobTimes[] = [];
  const env: NodeJS.ProcessEnv = {
    ...o.env,
    DATABASE_URL: adminUrl,
    APP_DATABASE_URL: appUrl,
    ANTHROPIC_API_KEY: 'sk-ant-bench-000000000000000000000000',
    ANTHROPIC_BASE_URL: api.url,
    BALCAO_MAX_EM_VOO: String(o.emVoo),
    BALCAO_JOB_EXPIRA_S: String(o.jobExpiraS),
    BALCAO_TIME_ZONE: o.timeZone,
    BALCAO_LOG_LEVEL: 'debug',
  };
  delete env.ANALYTICS_DATABASE_URL;
  if (o.directUrl) env.DIRECT_DATABASE_URL = urlForDatabase(o.directUrl, o.banco);
  else delete env.DIRECT_DATABASE_URL;
  const readyMs = Math.min(o.prazoS * 1000, 180_000);
  const spawnOne = () => spawnWorker(o.concorrencia, env, (t) => times.push(t), readyMs);
  const workers: BenchWorker[] = [];
  const admin = createPool(adminUrl, { max: 2, applicationName: 'balcao-bench-intake' });
  const app = createPool(appUrl, { max: 2, applicationName: 'balcao-bench-intake-app' });
  const deadline = Date.now() + o.prazoS * 1000;
  let kill: IntakeBenchResult['kill'] = null;
  let enqueueMs = 0;
  let t0: number;
  try {
    try {
      say(`iniciando ${o.workers} workers`);
      for (let i = 0; i < o.workers; i++) workers.push(spawnOne());
      await Promise.all(workers.map((w) => w.ready));
      const boss = await startBoss(app);
      try {
        say(`enfileirando ${o.mensagens} mensagens`);
        t0 = Date.now();
        for (let i = 0; i < msgs.length; i += 200) {
          const s = performance.now();
          const out = await enqueueMessages(
            { pool: app, boss, expireInSeconds: o.jobExpiraS },
            msgs.slice(i, i + 200),
          );
          enqueueMs += performance.now() - s;
          const bad = out.find((x) => x.status !== 'aceita');
          if (bad) throw new AppError('interno', `bench: mensagem não aceita (${bad.status}).`);
        }
      } finally {
        await boss.stop({ graceful: false, close: false, wait: true });
      }
      const pendentes = async () =>
        (
          await admin.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM mensagens WHERE estado = 'pendente'",
          )
        ).rows[0]!.n;
      if (o.matar) {
        const alvo = Math.ceil(o.mensagens * 0.4);
        for (;;) {
          const feitas = o.mensagens - (await pendentes());
          if (feitas >= alvo) break;
          if (Date.now() > deadline) throw new AppError('tempo_esgotado', 'bench: prazo esgotado.');
          await sleep(50);
        }
        const victim = workers[0]!;
        const emVoo = api.calls.filter((c) => c.fim === null).length;
        const concluidas = o.mensagens - (await pendentes());
        victim.kill9();
        await victim.exited;
        kill = {
          pid: victim.pid,
          aos_s: Number(((Date.now() - t0) / 1000).toFixed(2)),
          concluidas_antes: concluidas,
          requisicoes_em_voo_no_total: emVoo,
        };
        say(`kill -9 no worker ${victim.pid} com ${concluidas} concluídas; reiniciando`);
        const again = spawnOne();
        workers[0] = again;
        await again.ready;
      }
      let last = -1;
      for (;;) {
        const p = await pendentes();
        if (p === 0) break;
        if (p !== last) say(`${o.mensagens - p}/${o.mensagens} concluídas`);
        last = p;
        if (Date.now() > deadline) break;
        await sleep(100);
      }
    } finally {
      await Promise.allSettled(workers.map((w) => w.stop(15_000)));
    }
    return await intakeReport(admin, {
      opts: o,
      calls: api.calls,
      pico: api.pico(),
      times,
      enqueueMs,
      kill,
      t0,
    });
  } finally {
    await Promise.allSettled([admin.end(), app.end(), api.close()]);
  }
}
