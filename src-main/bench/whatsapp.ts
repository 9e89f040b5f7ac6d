/**
 * `balcao bench-whatsapp` (#37): the merchant's channel under load, end to end and for real — a
 * marked benchmark database (recreated each run; one the bench did not create is refused), a real
 * `balcao serve` process whose `POST /whatsapp/webhook` receives Meta's deliveries signed with the
 * app secret (X-Hub-Signature-256), W real `balcao worker` processes with the fake Messages API
 * (fake-messages-api.ts: every message lacks the customer's name, so each one gets a question)
 * and a fake Graph API over HTTP (fake-graph-api.ts) receiving our outgoing messages, each checked
 * against Meta's published schema.
 *
 * Merchants' numbers are registered in `lojistas_contatos`; N text messages are delivered, one per
 * delivery, `paralelo` at a time; a share of deliveries is played again after its 200 (Meta
 * retries), and must change nothing. Then the books:
 *   - webhook ack (the 200 of `POST /whatsapp/webhook`, client side) p50/p95/max, and that every
 *     acknowledged message was stored before its ack (whatsapp_recebidas.recebida_em ≤ the ack);
 *   - merchant message → question delivered: from the delivery's start to the fake Graph API
 *     receiving our question with `context.message_id` = the message's wamid, p50/p95/max;
 *   - throughput: messages / (last question delivered − first delivery started);
 *   - duplicates (must be 0): a message stored twice, a question sent twice (per message or per
 *     outbox row), a schema violation at the fake Graph API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import { createPool } from '../db/pool';
import { APP_ROLE } from '../db/roles';
import { urlForDatabase, urlForRole } from '../db/urls';
import { BENCH_WHATSAPP_DB } from './constants';
import { startFakeGraphApi } from './fake-graph-api';
import { startFakeApi, type BenchCharge } from './fake-messages-api';
import { freshDatabase } from './intake';
import { BENCH_MERCHANTS, benchMessages } from './intake-messages';
import { CLI_ENTRY, spawnWorker, type BenchWorker } from './intake-workers';
import { percentile } from './types';

export { BENCH_WHATSAPP_DB };

export interface WhatsAppBenchOptions {
  /** A superuser URL of the server (DATABASE_URL). */
  serverUrl: string;
  appUrl?: string;
  banco: string;
  mensagens: number;
  /** Merchants writing (each with one registered number); messages spread evenly. */
  lojistas: number;
  /** Deliveries in flight at the same time (Meta's side). */
  paralelo: number;
  /** Messages arriving per second (0: as fast as `paralelo` allows — a burst). */
  porSegundo: number;
  workers: number;
  /** Jobs in parallel per worker. */
  concorrencia: number;
  /** The fake model's latency (ms, ± a quarter of it). */
  latenciaModeloMs: number;
  /** The fake Graph API's latency per send (ms). */
  latenciaGraphMs: number;
  /** Share (%) of deliveries played again after their 200. */
  reenviosPct: number;
  prazoS: number;
  timeZone: string;
  /** Base environment of the child processes (PATH etc.). */
  env: NodeJS.ProcessEnv;
  onProgress?: (t: string) => void;
}

export interface Stats {
  p50: number;
  p95: number;
  max: number;
}

export interface WhatsAppBenchResult {
  mensagens: number;
  lojistas: number;
  paralelo: number;
  /** Arrival rate asked for (0: a burst). */
  por_segundo: number;
  workers: number;
  concorrencia: number;
  latencia_modelo_ms: number;
  latencia_graph_ms: number;
  /** The 200 of POST /whatsapp/webhook, client side. */
  ack_webhook_ms: Stats;
  /** Acks whose message was not stored before them (must be 0). */
  guardadas_depois_do_ack: number;
  /** Delivery started → our question received by the fake Graph API. */
  mensagem_ate_pergunta_ms: Stats;
  duracao_s: number;
  vazao_mensagens_s: number;
  guardadas: number;
  perguntas_entregues: number;
  reenvios: number;
  /** Messages stored twice + questions sent twice (per message and per outbox row). */
  duplicadas: number;
  /** Requests the fake Graph API refused (schema, token): must be 0. */
  violacoes: number;
  /** Deliveries answered other than 200 (then delivered again, as Meta does). */
  respostas_nao_200: number;
  /** The machine's 1-minute load average at the start and the end (other work skews timings). */
  carga_media: [number, number];
  ok: boolean;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const round = (x: number, d = 1) => Number(x.toFixed(d));
const stats = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    p50: round(percentile(s, 50)),
    p95: round(percentile(s, 95)),
    max: round(s[s.length - 1] ?? 0),
  };
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A real `balcao serve`, ready when it says where it listens. */
function spawnServe(port: number, env: NodeJS.ProcessEnv, readyMs: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI_ENTRY, 'serve', '--port', String(port)],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const tail: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve não ficou pronto em ${readyMs} ms: ${tail.join(' | ')}`)),
      readyMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve saiu (código ${code}): ${tail.slice(-5).join(' | ')}`));
    });
    if (child.stderr) {
      createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
        if (line.startsWith('Recebendo mensagens em')) {
          clearTimeout(timer);
          resolve();
        }
        if (!line.startsWith('{')) tail.push(line.slice(0, 300));
        if (tail.length > 20) tail.shift();
      });
    }
  });
  ready.catch(() => undefined);
  return {
    ready,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** The merchant's number of bench merchant m (E.164, digits as Meta's wa_id). */
const waId = (m: number) => `551190000${String(m).padStart(4, '0')}`;

/** One Meta delivery with one text message, as `entry[].changes[].value` carries it. */
function delivery(phoneNumberId: string, from: string, wamid: string, texto: string, ts: number) {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA-BENCH',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '5511300000000', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Lojista' }, wa_id: from }],
              messages: [
                { from, id: wamid, timestamp: String(ts), type: 'text', text: { body: texto } },
              ],
            },
          },
        ],
      },
    ],
  });
}

export async function runWhatsAppBench(o: WhatsAppBenchOptions): Promise<WhatsAppBenchResult> {
  const say = o.onProgress ?? (() => undefined);
  say(`preparando o banco ${o.banco}`);
  const adminUrl = await freshDatabase(o.serverUrl, o.banco);
  const appUrl = o.appUrl ? urlForDatabase(o.appUrl, o.banco) : urlForRole(adminUrl, APP_ROLE);
  const cargaInicio = round(loadavg()[0] ?? 0, 2);
  const today = localDate(new Date(), o.timeZone);
  const { msgs, charges } = benchMessages(o.mensagens, today);
  // Every message lacks the customer's name: each one is answered with a question.
  const incompletas = new Map<number, BenchCharge>(
    [...charges].map(([k, c]) => [k, { ...c, kind: 'incompleta' }]),
  );
  const api = await startFakeApi({
    charges: incompletas,
    latenciaMs: o.latenciaModeloMs,
    jitterMs: Math.round(o.latenciaModeloMs / 4),
    taxa429: 0,
    taxa5xx: 0,
    retryAfterS: 1,
    seed: 37,
  });
  const phoneNumberId = '109876543210';
  const graph = await startFakeGraphApi({ latenciaMs: o.latenciaGraphMs, phoneNumberId });
  const appSecret = randomBytes(24).toString('hex');
  const env: NodeJS.ProcessEnv = {
    ...o.env,
    DATABASE_URL: adminUrl,
    APP_DATABASE_URL: appUrl,
    ANTHROPIC_API_KEY: 'sk-ant-bench-000000000000000000000000',
    ANTHROPIC_BASE_URL: api.url,
    BALCAO_MAX_EM_VOO: String(o.workers * o.concorrencia),
    BALCAO_TIME_ZONE: o.timeZone,
    BALCAO_INTAKE_SECRET: randomBytes(24).toString('hex'),
    BALCAO_WHATSAPP_APP_SECRET: appSecret,
    BALCAO_WHATSAPP_VERIFY_TOKEN: randomBytes(12).toString('hex'),
    BALCAO_WHATSAPP_PHONE_NUMBER_ID: phoneNumberId,
    BALCAO_WHATSAPP_TOKEN: graph.token,
    BALCAO_WHATSAPP_API_URL: graph.apiUrl,
    BALCAO_WHATSAPP_VARREDURA_S: '5',
    BALCAO_LOG_LEVEL: 'warn',
  };
  for (const k of ['ANALYTICS_DATABASE_URL', 'DIRECT_DATABASE_URL', 'BALCAO_WHATSAPP_TEMPLATE']) {
    delete env[k];
  }
  const admin = createPool(adminUrl, { max: 2, applicationName: 'balcao-bench-whatsapp' });
  const readyMs = Math.min(o.prazoS * 1000, 180_000);
  const workers: BenchWorker[] = [];
  let serve: ReturnType<typeof spawnServe> | null = null;
  const deadline = Date.now() + o.prazoS * 1000;
  try {
    await admin.query(
      `INSERT INTO merchants (id, nome)
       SELECT i, 'Loja de benchmark ' || i FROM generate_series($1::int, $2::int) AS i`,
      [BENCH_MERCHANTS + 1, o.lojistas],
    );
    await admin.query(
      `INSERT INTO lojistas_contatos (telefone, merchant_id, criado_por)
       SELECT '+' || $1::text || lpad(m::text, 4, '0'), m, 'bench'
         FROM generate_series(1, $2::int) AS m`,
      [waId(0).slice(0, -4), o.lojistas],
    );
    const port = await freePort();
    say(`iniciando balcao serve na porta ${port} e ${o.workers} workers`);
    serve = spawnServe(port, env, readyMs);
    for (let i = 0; i < o.workers; i++) {
      workers.push(spawnWorker(o.concorrencia, env, () => undefined, readyMs));
    }
    await Promise.all([serve.ready, ...workers.map((w) => w.ready)]);
    const url = `http://127.0.0.1:${port}/whatsapp/webhook`;

    const inicio = new Map<string, number>();
    const ackAt = new Map<string, number>();
    const acks: number[] = [];
    let nao200 = 0;
    let reenvios = 0;
    const post = async (body: string): Promise<{ status: number; ms: number }> => {
      const sig = `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
      const s = performance.now();
      try {
        const r = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': sig },
          body,
        });
        await r.arrayBuffer();
        return { status: r.status, ms: performance.now() - s };
      } catch {
        return { status: 0, ms: performance.now() - s };
      }
    };
    say(`entregando ${o.mensagens} mensagens (${o.paralelo} em paralelo)`);
    let next = 0;
    const t0 = Date.now();
    const player = async () => {
      for (;;) {
        const i = next++;
        if (i >= msgs.length) return;
        // A steady arrival: message i is due at t0 + i / porSegundo.
        if (o.porSegundo > 0) {
          const due = t0 + (i * 1000) / o.porSegundo;
          if (due > Date.now()) await sleep(due - Date.now());
        }
        const m = msgs[i]!;
        const lojista = 1 + (i % o.lojistas);
        const wamid = `wamid.bench.entrada.${i + 1}`;
        const body = delivery(
          phoneNumberId,
          waId(lojista),
          wamid,
          m.texto,
          Math.floor(Date.now() / 1000),
        );
        inicio.set(wamid, Date.now());
        let r = await post(body);
        acks.push(r.ms);
        // Meta delivers again what it did not see acknowledged (a 5xx, a refused connection):
        // so does the bench, a second later, up to 10 times.
        for (let vez = 1; r.status !== 200 && vez <= 10; vez++) {
          nao200++;
          await sleep(1000);
          r = await post(body);
        }
        if (r.status !== 200) continue;
        ackAt.set(wamid, Date.now());
        // Meta plays a delivery again when it did not see the 200: the same body, signed.
        if ((i * 7919) % 100 < o.reenviosPct) {
          reenvios++;
          const again = await post(body);
          if (again.status !== 200) nao200++;
        }
      }
    };
    await Promise.all(Array.from({ length: o.paralelo }, player));

    let last = -1;
    for (;;) {
      const respondidas = new Set(graph.sends.map((s) => s.contexto)).size;
      // Only acknowledged messages are owed a question (one never acknowledged fails the run).
      if (respondidas >= ackAt.size) break;
      if (respondidas !== last) say(`${respondidas}/${o.mensagens} perguntas entregues`);
      last = respondidas;
      if (Date.now() > deadline) break;
      await sleep(200);
    }

    const stored = await admin.query<{ wamid: string; recebida: Date; n: number }>(
      `SELECT r.wamid, r.recebida_em AS recebida,
              (SELECT count(*)::int FROM mensagens x
                WHERE x.canal = 'whatsapp' AND x.mensagem_id = r.wamid) AS n
         FROM whatsapp_recebidas r`,
    );
    let depois = 0;
    let duplicadas = 0;
    for (const r of stored.rows) {
      const ack = ackAt.get(r.wamid);
      if (ack === undefined || r.recebida.getTime() > ack) depois++;
      if (r.n !== 1) duplicadas += Math.max(0, r.n - 1);
    }
    depois += [...ackAt.keys()].filter((w) => !stored.rows.some((r) => r.wamid === w)).length;
    const porMensagem = new Map<string, number>();
    const porSaida = new Map<string, number>();
    const latencias: number[] = [];
    for (const s of graph.sends) {
      if (s.contexto) {
        porMensagem.set(s.contexto, (porMensagem.get(s.contexto) ?? 0) + 1);
        const t0 = inicio.get(s.contexto);
        if (t0 !== undefined && porMensagem.get(s.contexto) === 1) latencias.push(s.chegada - t0);
      }
      if (s.callback) porSaida.set(s.callback, (porSaida.get(s.callback) ?? 0) + 1);
    }
    for (const n of porMensagem.values()) duplicadas += n - 1;
    for (const n of porSaida.values()) duplicadas += n - 1;
    const primeiro = Math.min(...inicio.values());
    const ultimo = Math.max(...graph.sends.map((s) => s.chegada), primeiro);
    const duracao = (ultimo - primeiro) / 1000;
    const entregues = [...porMensagem.keys()].filter((k) => inicio.has(k)).length;
    return {
      mensagens: o.mensagens,
      lojistas: o.lojistas,
      paralelo: o.paralelo,
      por_segundo: o.porSegundo,
      workers: o.workers,
      concorrencia: o.concorrencia,
      latencia_modelo_ms: o.latenciaModeloMs,
      latencia_graph_ms: o.latenciaGraphMs,
      ack_webhook_ms: stats(acks),
      guardadas_depois_do_ack: depois,
      mensagem_ate_pergunta_ms: stats(latencias),
      duracao_s: round(duracao, 2),
      vazao_mensagens_s: round(duracao > 0 ? entregues / duracao : 0, 2),
      guardadas: stored.rows.length,
      perguntas_entregues: entregues,
      reenvios,
      duplicadas,
      violacoes: graph.violacoes.length,
      respostas_nao_200: nao200,
      carga_media: [cargaInicio, round(loadavg()[0] ?? 0, 2)],
      ok:
        stored.rows.length === o.mensagens &&
        entregues === o.mensagens &&
        depois === 0 &&
        duplicadas === 0 &&
        graph.violacoes.length === 0,
    };
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('interno', `bench-whatsapp: ${(e as Error).message}`);
  } finally {
    await Promise.allSettled([
      ...(serve ? [serve.stop()] : []),
      ...workers.map((w) => w.stop(15_000)),
    ]);
    await Promise.allSettled([admin.end(), api.close(), graph.close()]);
  }
}
