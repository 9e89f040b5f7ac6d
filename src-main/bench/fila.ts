/**
 * `balcao bench-fila` (#39.1): a team on one live queue, for real. A marked database of its own;
 * real `balcao worker` processes against the fake Messages API feed it `--itens` items (every
 * result to the queue: BALCAO_AUTO_CRIAR=0); `--agentes` simulated desktops, each with its own
 * login (role suporte) through a PgBouncer of the bench's own (transaction pooling) when the
 * Debian package is installed, each running the live queue a signed-in desktop runs and working
 * the queue with think times (fila-agents.ts) for `--segundos`. Then the books: every message
 * has its one item, no item was held by two agents at once, every action the agents recorded is
 * in the audit exactly once and every item is in the state its last action left it, every live
 * event reached every other agent; and the timings and the connections the primary saw.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import type pg from 'pg';
import { withClient } from '../db/client';
import { createPool } from '../db/pool';
import { APP_ROLE } from '../db/roles';
import { urlForDatabase, urlForRole } from '../db/urls';
import { enqueueMessages } from '../intake/enqueue';
import { startBoss } from '../intake/jobs';
import type { LiveSource } from '../intake/live-source';
import { FEED_INTERVAL_MS } from '../intake/live-feed';
import { createPerson } from '../people/admin';
import { createMemorySettings } from '../settings/memory';
import { startFakeApi, type BenchCharge } from './fake-messages-api';
import { startAgent, type Agent, type AgentRecord } from './fila-agents';
import { freshDatabase } from './intake';
import { BENCH_MERCHANTS, benchMessages } from './intake-messages';
import { spawnWorker, type BenchWorker } from './intake-workers';
import { pgbouncerAvailable, startBenchBouncer, type BenchBouncer } from './pgbouncer';
import { percentile } from './types';

export interface FilaBenchOptions {
  /** A superuser URL of the server (DATABASE_URL). */
  serverUrl: string;
  /** APP_DATABASE_URL when set: Balcão's own login (and password) for the workers and the checks. */
  appUrl?: string | undefined;
  banco: string;
  agentes: number;
  itens: number;
  segundos: number;
  /**
   * Seconds at the start of the agents' work that are not timed (new connections warming up);
   * at most a quarter of `segundos`. The checks cover the whole run.
   */
  aquecimentoS: number;
  /** Think time between an agent's steps (uniform). */
  pensarMinMs: number;
  pensarMaxMs: number;
  /** The desktops' live queue: the change log (default) or one LISTEN session each (the old design). */
  aoVivo: 'mudancas' | 'escuta';
  /** Through PgBouncer (when installed): `max_db_connections`. `semPooler` connects directly. */
  conexoesPooler: number;
  semPooler: boolean;
  workers: number;
  /**
   * Items the workers put in the queue during the run (from `--itens`); the rest is already in
   * the queue when the agents start, loaded in one statement (see preload).
   */
  pelosWorkers: number;
  latenciaMs: number;
  /** Longest the whole run may take (s). */
  prazoS: number;
  timeZone: string;
  env: NodeJS.ProcessEnv;
  onProgress?: (text: string) => void;
}

export interface Quantis {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export interface FilaBenchResult {
  agentes: number;
  itens: number;
  segundos: number;
  /** The first seconds of the agents' work, not timed (connections warming up). */
  aquecimento_s: number;
  ao_vivo: 'mudancas' | 'escuta';
  pooler: { pgbouncer: boolean; max_conexoes: number | null; pool_por_login: number | null };
  pensar_ms: { min: number; max: number };
  itens_na_fila: number;
  /** Items in the queue before the agents started (loaded at once; the workers add the rest). */
  itens_pre_carregados: number;
  entrada: { mensagens: number; concluidas: number; duracao_s: number };
  acoes: {
    /** Actions whose answer was lost on the way (they may have committed); not in the counts below. */
    incertas: number;
    assumidas: number;
    confirmadas: number;
    descartadas: number;
    perguntadas: number;
    rascunhos: number;
    /** "Próximo pedido" that found no free item (all open items held or being taken). */
    disputas: number;
    /** Actions refused or failed (pt-BR reasons, first few in `erros_exemplos`). */
    erros: number;
  };
  erros_exemplos: string[];
  assumir_ms: Quantis;
  confirmar_ms: Quantis;
  listar_ms: Quantis;
  abrir_ms: Quantis;
  salvar_ms: Quantis;
  /** From an agent's action returning to each other agent's live event naming the item. */
  ao_vivo_ms: Quantis;
  ao_vivo_nao_recebidas: number;
  ao_vivo_reconexoes: number;
  /**
   * The bench process's own event-loop delay while the agents worked (all desktops share one
   * Node process here): what the client-side timings above include of the bench itself.
   */
  atraso_do_bench_ms: { p50: number; p95: number; max: number };
  assuncoes_duplas: number;
  acoes_perdidas: number;
  acoes_duplicadas: number;
  itens_em_estado_errado: number;
  /** Items still held at the end (a give-back that failed; the lease expires on its own). */
  reservas_restantes: number;
  itens_sem_conta: number;
  conexoes: {
    /** Peak of pg_stat_activity for the bench database (every client together). */
    pico_total: number;
    /** Peak of the desktops' connections (balcao-pessoa, balcao-fila-ao-vivo) together. */
    pico_desktops: number;
    por_aplicacao: Record<string, number>;
  };
  carga: { inicio: number[]; fim: number[] };
  metas: { assumir_p95_ms: number; confirmar_p95_ms: number; ao_vivo_p95_ms: number };
  metas_atingidas: { assumir: boolean; confirmar: boolean; ao_vivo: boolean; conexoes: boolean };
  ok: boolean;
}

/**
 * PgBouncer's pool per login (`default_pool_size`). PgBouncer pools per login, and every person
 * signs in with their own: one server connection per active desktop, whose statements (a read of
 * the change log, a list, an action — each a few ms) queue in PgBouncer for it. Measured here
 * (50 agents, 60 s): with 2 per login the desktops reached the server's max_connections (100,
 * beside the workers) and PgBouncer's new logins failed and waited (claim p95 ~250 ms); with a
 * cap below one per desktop (40 for 50) connections churn between logins (claim p50 174 ms).
 */
const POOL_POR_LOGIN = 1;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function quantis(xs: number[]): Quantis {
  const s = [...xs].sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    n: s.length,
    p50: r(percentile(s, 50)),
    p95: r(percentile(s, 95)),
    max: r(s[s.length - 1] ?? 0),
  };
}

/** Login names of a run: per database, so runs on other databases never meet. */
function loginPrefix(banco: string): string {
  let h = 0;
  for (const ch of banco) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `bf${h.toString(36)}_agente_`;
}

async function dropLogins(serverUrl: string, prefix: string): Promise<void> {
  await withClient(serverUrl, async (c) => {
    const r = await c.query<{ n: string }>(
      `SELECT rolname AS n FROM pg_roles WHERE starts_with(rolname, $1)`,
      [prefix],
    );
    for (const { n } of r.rows) await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(n)}`);
  });
}

/** Samples pg_stat_activity of the bench database: peaks, in total and per application_name. */
function sampleConnections(adminUrl: string, banco: string) {
  const pool = createPool(adminUrl, { max: 1, applicationName: 'balcao-bench-fila-amostra' });
  const porApp: Record<string, number> = {};
  let picoTotal = 0;
  let picoDesktops = 0;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      try {
        const r = await pool.query<{ app: string; n: number }>(
          `SELECT coalesce(nullif(application_name, ''), '(sem nome)') AS app, count(*)::int AS n
             FROM pg_stat_activity WHERE datname = $1 GROUP BY 1`,
          [banco],
        );
        let total = 0;
        let desk = 0;
        for (const { app, n } of r.rows) {
          total += n;
          if (app === 'balcao-pessoa' || app === 'balcao-fila-ao-vivo') desk += n;
          porApp[app] = Math.max(porApp[app] ?? 0, n);
        }
        picoTotal = Math.max(picoTotal, total);
        picoDesktops = Math.max(picoDesktops, desk);
      } catch {
        // a sample lost is a sample lost
      }
      await sleep(200);
    }
  })();
  return {
    async stop() {
      stop = true;
      await loop;
      await pool.end();
      return { pico_total: picoTotal, pico_desktops: picoDesktops, por_aplicacao: porApp };
    },
  };
}

/**
 * The queue as the workers would have left it, for the items beyond what they feed during the run
 * (a busy day's backlog, arrived over the last 8 hours, in one statement): the bench messages'
 * own charges, complete, incomplete (no customer name) or failed as the fake model answers them.
 */
async function preload(
  pool: pg.Pool,
  charges: ReadonlyMap<number, BenchCharge>,
  ks: number[],
  today: string,
): Promise<void> {
  const rows = ks.map((k) => {
    const c = charges.get(k)!;
    const status =
      c.kind === 'falha' ? 'falhou' : c.kind === 'incompleta' ? 'incompleto' : 'completo';
    const dados =
      c.kind === 'falha'
        ? null
        : {
            valor_centavos: c.valor_centavos,
            parcelas: c.parcelas,
            metodo: c.metodo,
            cliente_nome: c.kind === 'incompleta' ? null : c.cliente_nome,
            vencimento: c.vencimento,
            descricao: null,
            cliente_documento: c.cliente_documento,
            faltando: c.kind === 'incompleta' ? ['cliente_nome'] : [],
          };
    const erros =
      c.kind === 'falha'
        ? [{ campo: 'valor_centavos', regra: 'valor_minimo', mensagem: 'Valor abaixo do mínimo.' }]
        : [];
    return {
      merchant: 1 + (k % BENCH_MERCHANTS),
      texto: `Cobrança de ${c.valor_centavos} centavos para ${c.cliente_nome} [bench:${k}]`,
      status,
      dados,
      erros,
      // Arrived over the last 8 hours (scattered, the same every run): deadlines of every
      // situation interleave in the queue's order, as on a working day — not all failures first.
      idade: (k * 7919) % (8 * 3600),
    };
  });
  for (let i = 0; i < rows.length; i += 5000) {
    const part = rows.slice(i, i + 5000);
    await pool.query(
      `INSERT INTO extracoes (merchant_id, texto, status, dados, erros, tentativas, modelo, hoje,
                             criada_em)
       SELECT m, t, s, d, e, 1, 'bench-fila', $6::date, now() - idade * interval '1 second'
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $7::int[])
              AS x(m, t, s, d, e, idade)`,
      [
        part.map((r) => r.merchant),
        part.map((r) => r.texto),
        part.map((r) => r.status),
        part.map((r) => (r.dados ? JSON.stringify(r.dados) : null)),
        part.map((r) => JSON.stringify(r.erros)),
        today,
        part.map((r) => r.idade),
      ],
    );
  }
}

const AUDIT_OF: Record<AgentRecord['acao'], string> = {
  assumiu: 'assumiu',
  rascunho: 'rascunho_salvo',
  confirmou: 'cobranca_criada',
  descartou: 'descartada',
  perguntou: 'pergunta_ao_lojista',
};

export async function runQueueBench(o: FilaBenchOptions): Promise<FilaBenchResult> {
  const say = o.onProgress ?? (() => undefined);
  const carga0 = loadavg().map((x) => Math.round(x * 100) / 100);
  const prefix = loginPrefix(o.banco);
  say(`preparando o banco ${o.banco}`);
  const adminUrl = await freshDatabase(o.serverUrl, o.banco);
  await dropLogins(o.serverUrl, prefix);
  // Balcão's own login as the deployment gives it (APP_DATABASE_URL, with its password), on the
  // bench's database; without it, the app role on the admin URL's server (trust or peer auth).
  const appUrl = o.appUrl ? urlForDatabase(o.appUrl, o.banco) : urlForRole(adminUrl, APP_ROLE);
  const admin = createPool(adminUrl, { max: 3, applicationName: 'balcao-bench-fila' });
  const app = createPool(appUrl, { max: 2, applicationName: 'balcao-bench-fila-app' });
  const deadline = Date.now() + o.prazoS * 1000;
  const today = localDate(new Date(), o.timeZone);
  const { msgs: all, charges } = benchMessages(o.itens, today);
  const aoVivo = Math.min(o.itens, o.pelosWorkers);
  const preCarregados = o.itens - aoVivo;
  const msgs = all.slice(preCarregados);
  const api = await startFakeApi({
    charges,
    latenciaMs: o.latenciaMs,
    jitterMs: Math.round(o.latenciaMs / 3),
    taxa429: 0,
    taxa5xx: 0,
    retryAfterS: 1,
    seed: 39,
  });
  let bouncer: BenchBouncer | null = null;
  const workers: BenchWorker[] = [];
  const agents: Agent[] = [];
  let conns: ReturnType<typeof sampleConnections> | null = null;
  try {
    // The people: one login each, role suporte, a password of the run.
    const senha = randomBytes(12).toString('hex');
    const logins = Array.from(
      { length: o.agentes },
      (_, i) => `${prefix}${String(i + 1).padStart(2, '0')}`,
    );
    say(`criando ${o.agentes} logins`);
    for (const nome of logins) await createPerson(admin, { nome, papel: 'suporte', senha });
    const usePooler = !o.semPooler && pgbouncerAvailable();
    if (usePooler) {
      say('iniciando o PgBouncer');
      bouncer = await startBenchBouncer({
        serverUrl: o.serverUrl,
        database: o.banco,
        maxConexoes: o.conexoesPooler,
        poolPorLogin: POOL_POR_LOGIN,
      });
    }
    const personUrl = (login: string) =>
      bouncer ? bouncer.urlFor(login, senha) : urlForRole(adminUrl, login, senha);
    const directUrl = (login: string) => urlForRole(adminUrl, login, senha);

    const env: NodeJS.ProcessEnv = {
      ...o.env,
      DATABASE_URL: adminUrl,
      APP_DATABASE_URL: appUrl,
      ANTHROPIC_API_KEY: 'sk-ant-bench-000000000000000000000000',
      ANTHROPIC_BASE_URL: api.url,
      BALCAO_AUTO_CRIAR: '0',
      BALCAO_MAX_EM_VOO: '32',
      BALCAO_TIME_ZONE: o.timeZone,
      BALCAO_LOG_LEVEL: 'warn',
    };
    delete env.ANALYTICS_DATABASE_URL;
    delete env.DIRECT_DATABASE_URL;
    say(`iniciando ${o.workers} workers`);
    const readyMs = Math.min(o.prazoS * 1000, 180_000);
    for (let i = 0; i < o.workers; i++) {
      workers.push(spawnWorker(16, env, () => undefined, readyMs));
    }
    await Promise.all(workers.map((w) => w.ready));
    if (preCarregados > 0) {
      say(`carregando ${preCarregados} itens na fila`);
      await preload(
        admin,
        charges,
        Array.from({ length: preCarregados }, (_, i) => i + 1),
        today,
      );
      // A busy day's table has its statistics (autovacuum keeps them): without this, the first
      // minute plans the list for the few rows the table had before the load.
      await admin.query('ANALYZE extracoes');
    }
    conns = sampleConnections(adminUrl, o.banco);

    const base = createMemorySettings({ timeZone: o.timeZone }, {});
    say(`conectando ${o.agentes} agentes`);
    for (const [i, login] of logins.entries()) {
      const live: LiveSource =
        o.aoVivo === 'escuta' ? { kind: 'escuta', url: directUrl(login) } : { kind: 'mudancas' };
      agents.push(
        startAgent({
          login,
          url: personUrl(login),
          live,
          base,
          pensarMinMs: o.pensarMinMs,
          pensarMaxMs: o.pensarMaxMs,
          seed: 1000 + i,
        }),
      );
      // Desktops are opened one after another, not in the same millisecond: their reads of
      // the change log do not all fall on the same instant.
      await sleep(Math.round(FEED_INTERVAL_MS / o.agentes));
    }
    const boss = await startBoss(app);
    const t0 = Date.now();
    try {
      say(`enfileirando ${o.itens} mensagens`);
      for (let i = 0; i < msgs.length; i += 500) {
        const out = await enqueueMessages({ pool: app, boss }, msgs.slice(i, i + 500));
        const bad = out.find((x) => x.status !== 'aceita');
        if (bad) throw new AppError('interno', `bench: mensagem não aceita (${bad.status}).`);
      }
    } finally {
      await boss.stop({ graceful: false, close: false, wait: true });
    }
    const counts = async () =>
      (
        await admin.query<{ pendentes: number; itens: number }>(
          `SELECT (SELECT count(*)::int FROM mensagens WHERE estado = 'pendente') AS pendentes,
                  (SELECT count(*)::int FROM extracoes) AS itens`,
        )
      ).rows[0]!;
    // The agents start when there is work for all of them.
    for (;;) {
      const c = await counts();
      if (c.itens >= Math.min(o.itens, preCarregados + o.agentes * 2) || Date.now() > deadline)
        break;
      await sleep(200);
    }
    say(`${o.agentes} agentes trabalhando por ${o.segundos} s`);
    const inicio = performance.now();
    const ate = inicio + o.segundos * 1000;
    const aquecimentoMs = Math.min(o.aquecimentoS * 1000, (o.segundos * 1000) / 4);
    const cronometrarDe = inicio + aquecimentoMs;
    const laco = monitorEventLoopDelay({ resolution: 10 });
    laco.enable();
    await Promise.all(agents.map((a) => a.run(ate, cronometrarDe)));
    laco.disable();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const atraso = {
      p50: ms(laco.percentile(50)),
      p95: ms(laco.percentile(95)),
      max: ms(laco.max),
    };
    say('agentes pararam; esperando a entrada terminar');
    let entradaS = 0;
    for (;;) {
      const c = await counts();
      if (c.pendentes === 0) {
        entradaS = (Date.now() - t0) / 1000;
        break;
      }
      if (Date.now() > deadline) break;
      await sleep(250);
    }
    // The last events reach every desktop (a few reads of the change log; a desktop whose reads
    // failed under load catches up from where it was), for at most 30 s.
    const naoOuvidas = () => {
      let n = 0;
      for (const a of agents)
        for (const f of agents.flatMap((b) => (b === a ? [] : b.feito)))
          if (!a.ouviu.get(f.id)?.some((x) => x >= f.inicio)) n++;
      return n;
    };
    const ouvirAte = Date.now() + 30_000;
    while (naoOuvidas() > 0 && Date.now() < ouvirAte) await sleep(500);
    const connStats = await conns.stop();
    conns = null;
    await Promise.all(agents.map((a) => a.close()));
    await Promise.allSettled(workers.map((w) => w.stop(15_000)));
    const fim = await counts();

    // --- The books.
    const feito = agents.flatMap((a) => a.feito);
    const seguros = agents.flatMap((a) => a.seguros);
    // Double claims: two agents holding the same item at overlapping moments.
    let duplas = 0;
    const porItem = new Map<number, typeof seguros>();
    for (const s of seguros) {
      const l = porItem.get(s.id);
      if (l) l.push(s);
      else porItem.set(s.id, [s]);
    }
    for (const l of porItem.values()) {
      l.sort((a, b) => a.de - b.de);
      for (let i = 1; i < l.length; i++) {
        if (l[i]!.agente !== l[i - 1]!.agente && l[i]!.de < l[i - 1]!.ate) duplas++;
      }
    }
    // Every recorded action in the audit exactly once (by login, item and action).
    const esperado = new Map<string, number>();
    const talvez = new Map<string, number>();
    for (const f of feito) {
      const k = `${f.agente}|${f.id}|${AUDIT_OF[f.acao]}`;
      const m = f.incerta ? talvez : esperado;
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    const audit = await admin.query<{ login: string; id: number; acao: string; n: number }>(
      `SELECT login, extracao_id AS id, acao, count(*)::int AS n FROM auditoria
        WHERE starts_with(login, $1) AND acao = ANY($2::text[]) GROUP BY 1, 2, 3`,
      [prefix, Object.values(AUDIT_OF)],
    );
    let perdidas = 0;
    let duplicadas = 0;
    const visto = new Set<string>();
    for (const r of audit.rows) {
      const k = `${r.login}|${r.id}|${r.acao}`;
      visto.add(k);
      const e = esperado.get(k) ?? 0;
      // An action whose answer was lost may have committed (once) or not.
      if (r.n > e + (talvez.get(k) ?? 0)) duplicadas += r.n - e - (talvez.get(k) ?? 0);
      if (r.n < e) perdidas += e - r.n;
    }
    for (const [k, e] of esperado) if (!visto.has(k)) perdidas += e;
    // Each item in the state its last action left it; nothing resolved that no agent resolved.
    // (An uncertain last action is taken as done when the database shows it: confirmed or
    // discarded; an uncertain question leaves the item open either way.)
    const feitoNoBanco = new Set(audit.rows.map((r) => `${r.login}|${r.id}|${r.acao}`));
    const ultima = new Map<number, AgentRecord>();
    for (const f of feito) {
      if (f.acao === 'assumiu' || f.acao === 'rascunho') continue;
      if (f.incerta && !feitoNoBanco.has(`${f.agente}|${f.id}|${AUDIT_OF[f.acao]}`)) continue;
      const u = ultima.get(f.id);
      if (!u || u.fim < f.fim) ultima.set(f.id, f);
    }
    const estados = await admin.query<{
      id: number;
      fila_estado: string;
      aguardando: boolean;
      com_reserva: boolean;
      resolvida_por_login: string | null;
      cobrancas: number;
    }>(
      `SELECT e.id, e.fila_estado, e.aguardando_desde IS NOT NULL AS aguardando,
              e.lease_token IS NOT NULL AS com_reserva, e.resolvida_por_login,
              (SELECT count(*)::int FROM cobrancas c WHERE c.extracao_id = e.id) AS cobrancas
         FROM extracoes e`,
    );
    let errado = 0;
    // Items still held when the run ended: a give-back that failed under load (the lease then
    // expires on its own, as a closed window's would).
    let reservasRestantes = 0;
    const errados: string[] = [];
    for (const e of estados.rows) {
      const u = ultima.get(e.id);
      if (e.com_reserva) reservasRestantes++;
      const ok = !u
        ? e.fila_estado === 'aberta' && e.cobrancas === 0
        : u.acao === 'confirmou'
          ? e.fila_estado === 'resolvida' && e.cobrancas === 1 && e.resolvida_por_login === u.agente
          : u.acao === 'descartou'
            ? e.fila_estado === 'descartada' && e.cobrancas === 0
            : e.fila_estado === 'aberta' && e.aguardando && e.cobrancas === 0;
      if (!ok) {
        errado++;
        if (errados.length < 5)
          errados.push(
            `item ${e.id}: ${e.fila_estado}${e.aguardando ? ', aguardando' : ''}${e.com_reserva ? ', reservado' : ''}, ${e.cobrancas} cobrança(s); última ação: ${u ? `${u.acao} por ${u.agente}` : 'nenhuma'}`,
          );
      }
    }
    const existe = new Set(estados.rows.map((e) => e.id));
    const semConta =
      Math.abs(o.itens - fim.itens) + [...ultima.keys()].filter((id) => !existe.has(id)).length;
    // Live: every action reached every other desktop.
    const latencias: number[] = [];
    let naoRecebidas = 0;
    const naoRecebidasEx: string[] = [];
    for (const f of feito) {
      let faltou = 0;
      for (const a of agents) {
        if (a.login === f.agente) continue;
        const t = a.ouviu.get(f.id)?.find((x) => x >= f.inicio);
        if (t === undefined) {
          naoRecebidas++;
          faltou++;
        } else if (f.inicio >= cronometrarDe) latencias.push(Math.max(0, t - f.fim));
      }
      if (faltou && naoRecebidasEx.length < 5)
        naoRecebidasEx.push(`${f.acao} ${f.id} por ${f.agente}: ${faltou} não souberam`);
    }
    const tempos = (k: keyof Agent['tempos']) => quantis(agents.flatMap((a) => a.tempos[k]));
    const erros = agents.flatMap((a) => a.erros);
    const count = (acao: AgentRecord['acao']) =>
      feito.filter((f) => f.acao === acao && !f.incerta).length;
    const r: FilaBenchResult = {
      agentes: o.agentes,
      itens: o.itens,
      segundos: o.segundos,
      aquecimento_s: Math.round(aquecimentoMs) / 1000,
      ao_vivo: o.aoVivo,
      pooler: {
        pgbouncer: bouncer !== null,
        max_conexoes: bouncer?.maxConexoes ?? null,
        pool_por_login: bouncer ? POOL_POR_LOGIN : null,
      },
      pensar_ms: { min: o.pensarMinMs, max: o.pensarMaxMs },
      itens_na_fila: fim.itens,
      itens_pre_carregados: preCarregados,
      entrada: {
        mensagens: aoVivo,
        concluidas: aoVivo - fim.pendentes,
        duracao_s: Math.round(entradaS * 10) / 10,
      },
      acoes: {
        incertas: feito.filter((f) => f.incerta).length,
        assumidas: count('assumiu'),
        confirmadas: count('confirmou'),
        descartadas: count('descartou'),
        perguntadas: count('perguntou'),
        rascunhos: count('rascunho'),
        disputas: agents.reduce((s, a) => s + a.disputas, 0),
        erros: erros.length,
      },
      erros_exemplos: [...errados, ...naoRecebidasEx, ...erros.slice(0, 5)],
      assumir_ms: tempos('assumir'),
      confirmar_ms: tempos('confirmar'),
      listar_ms: tempos('listar'),
      abrir_ms: tempos('abrir'),
      salvar_ms: tempos('salvar'),
      ao_vivo_ms: quantis(latencias),
      ao_vivo_nao_recebidas: naoRecebidas,
      ao_vivo_reconexoes: agents.reduce((s, a) => s + a.reconexoes, 0),
      atraso_do_bench_ms: atraso,
      assuncoes_duplas: duplas,
      acoes_perdidas: perdidas,
      acoes_duplicadas: duplicadas,
      itens_em_estado_errado: errado,
      reservas_restantes: reservasRestantes,
      itens_sem_conta: semConta,
      conexoes: connStats,
      carga: { inicio: carga0, fim: loadavg().map((x) => Math.round(x * 100) / 100) },
      metas: { assumir_p95_ms: 20, confirmar_p95_ms: 20, ao_vivo_p95_ms: 1000 },
      metas_atingidas: { assumir: false, confirmar: false, ao_vivo: false, conexoes: false },
      ok: false,
    };
    r.metas_atingidas = {
      assumir: r.assumir_ms.p95 <= r.metas.assumir_p95_ms,
      confirmar: r.confirmar_ms.p95 <= r.metas.confirmar_p95_ms,
      ao_vivo: r.ao_vivo_ms.p95 <= r.metas.ao_vivo_p95_ms,
      conexoes: bouncer !== null && connStats.pico_desktops <= bouncer.maxConexoes,
    };
    r.ok =
      duplas === 0 &&
      perdidas === 0 &&
      duplicadas === 0 &&
      errado === 0 &&
      semConta === 0 &&
      naoRecebidas === 0 &&
      fim.pendentes === 0 &&
      r.acoes.confirmadas > 0;
    return r;
  } finally {
    await conns?.stop().catch(() => undefined);
    await Promise.allSettled(agents.map((a) => a.close()));
    await Promise.allSettled(workers.map((w) => w.stop(15_000)));
    await bouncer?.stop().catch(() => undefined);
    await Promise.allSettled([admin.end(), app.end(), api.close()]);
    await dropLogins(o.serverUrl, prefix).catch(() => undefined);
  }
}
