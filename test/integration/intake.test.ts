import Anthropic from '@anthropic-ai/sdk';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src-main/clock';
import { createPool } from '../../src-main/db/pool';
import { enqueueMessages } from '../../src-main/intake/enqueue';
import { startBoss } from '../../src-main/intake/jobs';
import { createLimiter } from '../../src-main/intake/limiter';
import { markFailed } from '../../src-main/intake/lease';
import { parseMensagem, type MensagemEntrada } from '../../src-main/intake/message';
import { processMessage, RetryLater, type ProcessDeps } from '../../src-main/intake/process';
import { startWorker } from '../../src-main/intake/worker';
import { extractionChargeRules } from '../../src-main/queue/rules';
import { createMemorySettings } from '../../src-main/settings/memory';
import { silentLogger } from '../../src-main/util/logger';
import type { DadosCobranca } from '../../src-shared/extraction-types';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  heldReply,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import { dados, ensureMerchants } from '../support/queue-fixtures';
import type PgBoss from 'pg-boss';
import { whileRefusing } from '../support/refusing-trigger';

const NOW = new Date('2026-11-30T15:00:00Z');
const KEY = 'sk-ant-teste-000000000000000000';
let db: TestDatabase;
let fake: FakeAnthropic;
let boss: PgBoss;
beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await ensureMerchants(db.admin, {
    1: 'Padaria Central',
    2: 'Oficina do Zé',
    3: 'Mercadinho Bom Preço',
    4: 'Ateliê da Ana',
  });
  boss = await startBoss(db.app);
});
afterAll(async () => {
  await boss.stop({ graceful: false, close: false, wait: true });
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());
// A merchant's messages go one at a time in arrival order: what a test leaves pending (it did
// not process it) must not hold back the next test's messages of the same merchant.
afterEach(async () => {
  await db.admin.query(
    `UPDATE mensagens SET estado = 'erro', erro = 'deixada por um teste', lease_token = NULL,
            lease_expira_em = NULL, processada_em = now()
      WHERE estado = 'pendente'`,
  );
});

function settings(over: Record<string, unknown> = {}) {
  return createMemorySettings(
    {
      timeZone: 'America/Sao_Paulo',
      anthropicBaseUrl: fake.url,
      maxRetries: 0,
      requestTimeoutMs: 5_000,
      ...over,
    },
    { ANTHROPIC_API_KEY: KEY },
  );
}

function deps(over: Partial<ProcessDeps> = {}, s = settings()): ProcessDeps {
  return {
    pool: db.app,
    settings: s,
    clock: fixedClock(NOW),
    rules: extractionChargeRules,
    client: new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 }),
    logger: silentLogger,
    ...over,
  };
}

let seq = 0;
function msg(p: Partial<MensagemEntrada> = {}): MensagemEntrada {
  return {
    canal: 'whatsapp',
    mensagem_id: `m-${++seq}-${Date.now()}`,
    merchant: 1,
    texto: 'manda um link de 150 reais pro João Silva no cartão em 3x, vence 04/12',
    ...p,
  };
}

async function accept(m: MensagemEntrada): Promise<number> {
  const [o] = await enqueueMessages({ pool: db.app, boss }, [m]);
  if (o?.status !== 'aceita' || o.id === undefined) throw new Error(`não aceita: ${o?.motivo}`);
  return o.id;
}

const reply = (d: DadosCobranca) => toolUseReply('registrar_cobranca', d);
const CLEAN = dados({ valor_centavos: 15000, parcelas: 3, metodo: 'cartao' });

async function row(id: number) {
  const r = await db.admin.query<{
    estado: string;
    resultado: string | null;
    extracao_id: number | null;
  }>('SELECT estado, resultado, extracao_id FROM mensagens WHERE id = $1', [id]);
  return r.rows[0]!;
}

const count = async (sql: string, values: unknown[] = []) =>
  (await db.admin.query<{ n: number }>(sql, values)).rows[0]!.n;

/** Two real workers (3 jobs each) until every message of `ids` is concluded (or 20 s), stopped. */
async function drainWithTwoWorkers(
  ids: readonly number[],
  s: ReturnType<typeof settings>,
): Promise<void> {
  const common = {
    pool: db.app,
    sessionUrl: db.appUrl,
    settings: s,
    clock: fixedClock(NOW),
    logger: silentLogger,
    concurrency: 3,
    pollingIntervalSeconds: 0.5,
  };
  const [w1, w2] = await Promise.all([startWorker(common), startWorker(common)]);
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const n = await count(
        `SELECT count(*)::int AS n FROM mensagens WHERE id = ANY($1::bigint[]) AND estado = 'concluida'`,
        [ids],
      );
      if (n === ids.length || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await Promise.all([w1.stop(), w2.stop()]);
  }
}

describe('intake: accepting messages', () => {
  it('accepts once per (canal, mensagem_id): duplicates and unknown merchants are counted, one job each', async () => {
    const a = msg();
    const out = await enqueueMessages({ pool: db.app, boss }, [
      a,
      { ...a },
      msg({ merchant: 999 }),
      msg({ canal: 'email', mensagem_id: a.mensagem_id }),
    ]);
    expect(out.map((o) => o.status)).toEqual(['aceita', 'duplicada', 'recusada', 'aceita']);
    expect(out[2]!.motivo).toContain('lojista 999 não encontrado');
    expect(out[1]!.id).toBe(out[0]!.id);
    const again = await enqueueMessages({ pool: db.app, boss }, [a]);
    expect(again[0]).toMatchObject({ status: 'duplicada', id: out[0]!.id });
    const jobs = await count(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'intake'
          AND (data->>'mensagem')::bigint = ANY($1::bigint[])`,
      [[out[0]!.id, out[3]!.id]],
    );
    expect(jobs).toBe(2);
  });

  it('refuses NUL, lone surrogates, long texts, unknown fields and future dates with pt-BR reasons', () => {
    const base = { canal: 'whatsapp', mensagem_id: 'x1', merchant: 1, texto: 'oi' };
    const bad = (raw: unknown) => {
      const r = parseMensagem(raw, NOW);
      if (r.ok) throw new Error('aceitou');
      return r.motivo;
    };
    expect(bad({ ...base, texto: 'a\u0000b' })).toContain('caractere nulo');
    expect(bad({ ...base, texto: 'a\uD800b' })).toContain('UTF-16');
    expect(bad({ ...base, texto: 'x'.repeat(4001) })).toContain('4.000');
    expect(bad({ ...base, extra: 1 })).toContain('campo desconhecido');
    expect(bad({ ...base, merchant: '1' })).toContain('merchant');
    expect(bad({ ...base, canal: 'WhatsApp!' })).toContain('canal inválido');
    expect(bad({ ...base, recebida_em: '2027-01-01T00:00:00Z' })).toContain('futuro');
    expect(bad([])).toContain('objeto');
    expect(parseMensagem({ ...base, texto: '  oi  ' }, NOW)).toEqual({
      ok: true,
      value: { ...base, texto: 'oi' },
    });
  });
});

describe('intake: outcomes', () => {
  it('completo without alert → the charge is created as "sistema" with its audit entry', async () => {
    const id = await accept(msg());
    fake.enqueue(reply(CLEAN));
    const r = await processMessage(deps(), id);
    expect(r).toMatchObject({ feito: 'processada', resultado: 'cobranca_criada' });
    const m = await row(id);
    expect(m).toMatchObject({ estado: 'concluida', resultado: 'cobranca_criada' });
    const c = await db.admin.query(
      `SELECT c.criada_por, c.valor_centavos, e.fila_estado, e.resolvida_por
         FROM cobrancas c JOIN extracoes e ON e.id = c.extracao_id WHERE c.extracao_id = $1`,
      [m.extracao_id],
    );
    expect(c.rows).toEqual([
      {
        criada_por: 'sistema',
        valor_centavos: 15000,
        fila_estado: 'resolvida',
        resolvida_por: 'sistema',
      },
    ]);
    const audit = await db.admin.query(
      `SELECT operador, acao FROM auditoria WHERE extracao_id = $1 ORDER BY id`,
      [m.extracao_id],
    );
    expect(audit.rows).toEqual([{ operador: 'sistema', acao: 'cobranca_criada' }]);
    expect(fake.requests).toHaveLength(1);
    // #36: the same statement wrote the charge's dispatch (pendente) and its PSP job.
    const envio = await db.admin.query(
      `SELECT e.estado, (SELECT count(*)::int FROM pgboss.job j
                          WHERE j.name = 'cobrancas' AND (j.data->>'cobranca')::bigint = c.id) AS jobs
         FROM cobrancas c JOIN cobrancas_envios e ON e.cobranca_id = c.id
        WHERE c.extracao_id = $1`,
      [m.extracao_id],
    );
    expect(envio.rows).toEqual([{ estado: 'pendente', jobs: 1 }]);
    // The item is written once, already resolved, with what the queue's resolution writes: the
    // charge's dados, when, and the login that wrote it; the audit entry names the charge; the
    // attempt is kept.
    const e = await db.admin.query(
      `SELECT e.dados_revisados, e.resolvida_em IS NOT NULL AS quando, e.resolvida_por_login,
              a.detalhes->>'cobranca_id' = c.id::text AS audit_cobranca, a.depois, e.situacao,
              (SELECT count(*)::int FROM extracao_tentativas t WHERE t.extracao_id = e.id) AS t
         FROM extracoes e JOIN cobrancas c ON c.extracao_id = e.id
         JOIN auditoria a ON a.extracao_id = e.id AND a.acao = 'cobranca_criada'
        WHERE e.id = $1`,
      [m.extracao_id],
    );
    expect(e.rows[0]).toMatchObject({
      dados_revisados: { ...CLEAN, faltando: [] },
      quando: true,
      resolvida_por_login: 'balcao_app',
      audit_cobranca: true,
      depois: { ...CLEAN, faltando: [] },
      t: 1,
    });
  });

  it('a charge the database refuses after the item was written resolved: the item goes to the queue, open, nothing of the charge kept', async () => {
    // A refusal the rules did not foresee (here a trigger; in life a constraint or a lost
    // check): the savepoint takes the charge back and the item is reopened in the same commit.
    await whileRefusing(db.admin, 'cobrancas', `NEW.cliente_nome = 'Recusa do Banco'`, async () => {
      const id = await accept(msg());
      fake.enqueue(reply({ ...CLEAN, cliente_nome: 'Recusa do Banco' }));
      const r = await processMessage(deps(), id);
      expect(r).toMatchObject({ feito: 'processada', resultado: 'fila' });
      const m = await row(id);
      expect(m).toMatchObject({ estado: 'concluida', resultado: 'fila' });
      const e = await db.admin.query(
        `SELECT fila_estado, dados_revisados, resolvida_por, resolvida_em, resolvida_por_login,
                (SELECT count(*)::int FROM cobrancas c WHERE c.extracao_id = e.id) AS cobrancas,
                (SELECT count(*)::int FROM auditoria a WHERE a.extracao_id = e.id) AS auditoria,
                (SELECT count(*)::int FROM extracao_tentativas t WHERE t.extracao_id = e.id) AS t
           FROM extracoes e WHERE e.id = $1`,
        [m.extracao_id],
      );
      expect(e.rows[0]).toEqual({
        fila_estado: 'aberta',
        dados_revisados: null,
        resolvida_por: null,
        resolvida_em: null,
        resolvida_por_login: null,
        cobrancas: 0,
        auditoria: 0,
        t: 1,
      });
    });
  });

  it('BALCAO_AUTO_CRIAR=0 sends a clean result to the review queue, no charge', async () => {
    const id = await accept(msg());
    fake.enqueue(reply(CLEAN));
    const s = createMemorySettings(
      { anthropicBaseUrl: fake.url, maxRetries: 0 },
      { ANTHROPIC_API_KEY: KEY, BALCAO_AUTO_CRIAR: '0' },
    );
    expect(s.get().autoCriar).toBe(false);
    await processMessage(deps({}, s), id);
    const m = await row(id);
    expect(m.resultado).toBe('fila');
    expect(
      await count('SELECT count(*)::int AS n FROM cobrancas WHERE extracao_id = $1', [
        m.extracao_id,
      ]),
    ).toBe(0);
    expect(
      (await db.admin.query('SELECT fila_estado FROM extracoes WHERE id = $1', [m.extracao_id]))
        .rows[0],
    ).toEqual({ fila_estado: 'aberta' });
  });

  it('incompleto → question in mensagens_saida, item waits; the reply on that thread re-runs the same item', async () => {
    const original = msg({ texto: 'manda uma cobrança pro João Silva no pix' });
    const id = await accept(original);
    fake.enqueue(
      reply(dados({ valor_centavos: null, parcelas: 1, metodo: 'pix', vencimento: null })),
    );
    const r = await processMessage(deps(), id);
    expect(r).toMatchObject({ resultado: 'aguardando_lojista' });
    const m = await row(id);
    const out = await db.admin.query<{
      mensagem_id: string;
      texto: string;
      responde_a: string;
      canal: string;
    }>('SELECT mensagem_id, texto, responde_a, canal FROM mensagens_saida WHERE origem = $1', [id]);
    expect(out.rows).toHaveLength(1);
    expect(out.rows[0]).toMatchObject({
      texto: 'Qual o valor da cobrança e a data de vencimento?',
      responde_a: original.mensagem_id,
      canal: 'whatsapp',
    });
    expect(
      (await db.admin.query('SELECT fila_estado FROM extracoes WHERE id = $1', [m.extracao_id]))
        .rows[0],
    ).toEqual({ fila_estado: 'aguardando_lojista' });

    const answer = await accept(
      msg({ texto: 'são 80 reais, vence dia 04/12', responde_a: out.rows[0]!.mensagem_id }),
    );
    fake.enqueue(reply(dados({ valor_centavos: 8000, parcelas: 1, metodo: 'pix' })));
    const r2 = await processMessage(deps(), answer);
    expect(r2).toMatchObject({ resultado: 'cobranca_criada', extracao_id: m.extracao_id });
    // The model saw the original text and the answer.
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).toContain('manda uma cobrança pro João Silva no pix');
    expect(sent).toContain('são 80 reais');
    expect(
      await count('SELECT count(*)::int AS n FROM extracoes WHERE id = $1', [m.extracao_id]),
    ).toBe(1);
    const e = await db.admin.query(
      'SELECT tentativas, jsonb_array_length(rodadas) AS rodadas FROM extracoes WHERE id = $1',
      [m.extracao_id],
    );
    expect(e.rows[0]).toEqual({ tentativas: 2, rodadas: 2 });
  });

  it('a reply to a thread whose item no longer waits is recorded on that item, not re-run', async () => {
    const id = await accept(msg());
    fake.enqueue(reply(CLEAN));
    await processMessage(deps(), id);
    const first = await row(id);
    const ans = await accept(
      msg({
        texto: 'obrigado!',
        responde_a: (
          await db.admin.query<{ mensagem_id: string }>(
            'SELECT mensagem_id FROM mensagens WHERE id = $1',
            [id],
          )
        ).rows[0]!.mensagem_id,
      }),
    );
    const r = await processMessage(deps(), ans);
    expect(r).toMatchObject({ resultado: 'sem_item_aberto', extracao_id: first.extracao_id });
    expect(fake.requests).toHaveLength(1);
  });

  it('falhou and amount alerts go to the review queue', async () => {
    const bad = dados({ metodo: 'pix', parcelas: 3 });
    const id = await accept(msg());
    fake.enqueue(reply(bad), reply(bad), reply(bad));
    expect(await processMessage(deps(), id)).toMatchObject({ resultado: 'fila' });
    const alerted = await accept(
      msg({ texto: 'cobra 150 reais do João Silva no cartão 3x vence 04/12' }),
    );
    fake.enqueue(reply(dados({ valor_centavos: 1500000 })));
    expect(await processMessage(deps(), alerted)).toMatchObject({ resultado: 'fila' });
    const states = await db.admin.query(
      `SELECT e.status, e.fila_estado, jsonb_array_length(e.alertas) AS alertas FROM mensagens m
         JOIN extracoes e ON e.id = m.extracao_id WHERE m.id = ANY($1::bigint[]) ORDER BY m.id`,
      [[id, alerted]],
    );
    expect(states.rows).toEqual([
      { status: 'falhou', fila_estado: 'aberta', alertas: 0 },
      { status: 'completo', fila_estado: 'aberta', alertas: 1 },
    ]);
  });
});

describe('intake: exactly one extraction per message', () => {
  it('a crash between attempts resumes from the stored answer: no attempt is paid twice', async () => {
    const id = await accept(msg());
    const bad = dados({ metodo: 'pix', parcelas: 3 });
    fake.enqueue(reply(bad));
    let crash = true;
    const crashing = deps({
      faults: (p) => {
        if (p === 'apos_tentativa' && crash) {
          crash = false;
          throw new Error('kill -9 simulado');
        }
      },
    });
    await expect(processMessage(crashing, id)).rejects.toThrow('kill -9 simulado');
    expect(fake.requests).toHaveLength(1);
    expect(
      await count('SELECT count(*)::int AS n FROM intake_tentativas WHERE mensagem = $1', [id]),
    ).toBe(1);
    // The retried job: attempt 1 is replayed from storage, attempt 2 is the only new call,
    // carrying attempt 1's answer and its validation feedback.
    fake.enqueue(reply(CLEAN));
    const r = await processMessage(deps(), id);
    expect(r).toMatchObject({ resultado: 'cobranca_criada', tentativas_novas: 1 });
    expect(fake.requests).toHaveLength(2);
    const second = fake.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(second.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(second[2]!.content)).toContain('não passou na validação');
    const e = await db.admin.query(
      `SELECT e.tentativas, (SELECT count(*)::int FROM extracao_tentativas t WHERE t.extracao_id = e.id) AS t
         FROM mensagens m JOIN extracoes e ON e.id = m.extracao_id WHERE m.id = $1`,
      [id],
    );
    expect(e.rows[0]).toEqual({ tentativas: 2, t: 2 });
  });

  it('a crash after the charge committed: the retried job creates no second charge and calls no model', async () => {
    const id = await accept(msg());
    fake.enqueue(reply(CLEAN));
    await expect(
      processMessage(
        deps({
          faults: (p) => {
            if (p === 'apos_commit') throw new Error('kill -9 depois do commit');
          },
        }),
        id,
      ),
    ).rejects.toThrow('depois do commit');
    expect(await processMessage(deps(), id)).toEqual({ feito: 'ja_concluida' });
    const m = await row(id);
    expect(
      await count('SELECT count(*)::int AS n FROM cobrancas WHERE extracao_id = $1', [
        m.extracao_id,
      ]),
    ).toBe(1);
    expect(
      await count('SELECT count(*)::int AS n FROM extracoes WHERE merchant_id = 1 AND id = $1', [
        m.extracao_id,
      ]),
    ).toBe(1);
    expect(fake.requests).toHaveLength(1);
  });

  it('a lease lost while the model answered: the outcome is not stored (no item, no charge), the message stays pending', async () => {
    const texto = `manda 150 reais pro João Silva no cartão em 3x, vence 04/12 (${Date.now()})`;
    const id = await accept(msg({ texto }));
    fake.enqueue(reply(CLEAN));
    const stolen = deps({
      // Between the answer and the outcome, another worker takes the message over (this one's
      // lease expired while it waited).
      faults: async (p) => {
        if (p === 'apos_tentativa') {
          await db.admin.query(
            `UPDATE mensagens SET lease_token = gen_random_uuid(),
                    lease_expira_em = now() + interval '30 seconds' WHERE id = $1`,
            [id],
          );
        }
      },
    });
    await expect(processMessage(stolen, id)).rejects.toThrow('A reserva da mensagem expirou');
    expect(await row(id)).toMatchObject({ estado: 'pendente', extracao_id: null });
    expect(await count('SELECT count(*)::int AS n FROM extracoes WHERE texto = $1', [texto])).toBe(
      0,
    );
    expect(
      await count(
        `SELECT count(*)::int AS n FROM cobrancas c JOIN extracoes e ON e.id = c.extracao_id
          WHERE e.texto = $1`,
        [texto],
      ),
    ).toBe(0);
    // The answer stays stored for whoever holds the lease now.
    expect(
      await count('SELECT count(*)::int AS n FROM intake_tentativas WHERE mensagem = $1', [id]),
    ).toBe(1);
  });

  it("the outcome's statement cut by a terminated connection: nothing half-written; the retry writes it once, without calling the model", async () => {
    // The worker's pool as `balcao worker` makes it on a session connection: hot statements
    // prepared. One connection, so what it prepared can be read back.
    const pool = createPool(db.appUrl, { max: 1, prepare: true });
    const texto = `manda 150 reais pro João Silva no cartão em 3x, vence 04/12 (${Date.now()})`;
    const id = await accept(msg({ texto }));
    fake.enqueue(reply(CLEAN));
    const holder = await db.admin.connect();
    try {
      const cut = processMessage(
        deps({
          pool,
          // The answer is stored; another session now holds the message row, so the outcome's
          // one statement waits on it — and its connection is terminated while it waits.
          faults: async (p) => {
            if (p !== 'apos_tentativa') return;
            await holder.query('BEGIN');
            await holder.query('SELECT 1 FROM mensagens WHERE id = $1 FOR UPDATE', [id]);
          },
        }),
        id,
      );
      const failed = expect(cut).rejects.toMatchObject({ code: 'banco_indisponivel' });
      let pid: number | undefined;
      for (let i = 0; i < 100 && pid === undefined; i++) {
        const w = await db.admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE 'WITH e AS%' AND datname = current_database()`,
        );
        pid = w.rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 20));
      }
      expect(pid).toBeDefined();
      await db.admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // (Released at once: the failed job gives its lease back, and that waits for the row.)
      await holder.query('ROLLBACK');
      await failed;
      expect(await row(id)).toMatchObject({ estado: 'pendente', extracao_id: null });
      expect(
        await count('SELECT count(*)::int AS n FROM extracoes WHERE texto = $1', [texto]),
      ).toBe(0);
      // The retried job: the stored answer, no new model call, one item, one charge, one entry.
      const r = await processMessage(deps({ pool }), id);
      expect(r).toMatchObject({
        feito: 'processada',
        resultado: 'cobranca_criada',
        tentativas_novas: 0,
      });
      expect(fake.requests).toHaveLength(1);
      const m = await row(id);
      expect(
        await count(
          `SELECT count(*)::int AS n FROM extracoes e JOIN cobrancas c ON c.extracao_id = e.id
            WHERE e.texto = $1`,
          [texto],
        ),
      ).toBe(1);
      expect(
        await count(
          `SELECT count(*)::int AS n FROM auditoria WHERE acao = 'cobranca_criada' AND extracao_id = $1`,
          [m.extracao_id],
        ),
      ).toBe(1);
      // The retry's connection prepared its lease and its outcome statement.
      const prepared = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'balcao\\_%'`,
      );
      expect(prepared.rows[0]!.n).toBeGreaterThanOrEqual(2);
    } finally {
      holder.release();
      await pool.end();
    }
  });

  it('a job for a message another live worker holds waits (RetryLater), it does not extract again', async () => {
    const id = await accept(msg());
    const held = heldReply(reply(CLEAN));
    fake.enqueue(held.reply);
    const first = processMessage(deps(), id);
    // The first job is extracting (its request is at the model) until we let it answer.
    await expect.poll(() => fake.requests.length).toBe(1);
    await expect(processMessage(deps(), id)).rejects.toBeInstanceOf(RetryLater);
    held.release();
    await first;
    expect(fake.requests).toHaveLength(1);
  });
});

describe('intake: limits shared by every worker', () => {
  it("a 429's retry-after pauses every worker (state in PostgreSQL) and the in-flight cap holds", async () => {
    const a = createLimiter({ connectionString: db.appUrl, cap: 2 });
    const b = createLimiter({ connectionString: db.appUrl, cap: 2 });
    try {
      const clientA = new Anthropic({
        apiKey: KEY,
        baseURL: fake.url,
        maxRetries: 2,
        fetch: a.fetch,
      });
      const clientB = new Anthropic({
        apiKey: KEY,
        baseURL: fake.url,
        maxRetries: 2,
        fetch: b.fetch,
      });
      fake.enqueue(statusReply(429, { retryAfterMs: 1500 }), reply(CLEAN));
      const body = {
        model: 'claude-sonnet-4-6',
        max_tokens: 64,
        messages: [{ role: 'user' as const, content: 'oi' }],
      };
      const t0 = performance.now();
      const pA = a.gate(() => clientA.messages.create(body));
      // Worker B starts once A's 429 is recorded as the shared pause: it must wait for it.
      let pausedUntil = 0;
      await expect
        .poll(async () => {
          const r = await db.admin.query<{ ate: Date | null }>(
            `SELECT pausado_ate AS ate FROM intake_limites`,
          );
          pausedUntil = r.rows[0]?.ate?.getTime() ?? 0;
          return pausedUntil;
        })
        .toBeGreaterThan(0);
      fake.handle(() => reply(CLEAN));
      await b.gate(() => clientB.messages.create(body));
      await pA;
      expect(fake.requests).toHaveLength(3);
      // Whatever the machine's speed: no request of either worker before the pause ends (same
      // machine clock; the database's microseconds are cut to the millisecond below).
      for (const req of fake.requests.slice(1))
        expect(performance.timeOrigin + req.at).toBeGreaterThanOrEqual(pausedUntil);
      // A timer never fires early: B's call comes at least the retry-after after A's first.
      expect(fake.requests[2]!.at - t0).toBeGreaterThanOrEqual(1400);
      // Cap: 2 slots shared by both; 6 calls at once never have more than 2 open.
      fake.reset();
      fake.handle(() => ({ ...reply(CLEAN), delayMs: 150 }));
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? a : b).gate(() => (i % 2 ? clientA : clientB).messages.create(body)),
        ),
      );
      expect(fake.peakConcurrency()).toBe(2);
      expect(a.held() + b.held()).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
  it('a release notifies only while another session waits for a slot, and that wakes the waiter', async () => {
    const listener = new pg.Client({ connectionString: db.appUrl });
    await listener.connect();
    let notified = 0;
    const marks = new Set<string>();
    listener.on('notification', (n) => {
      if (n.payload?.startsWith('marca-')) marks.add(n.payload);
      else notified++;
    });
    await listener.query('LISTEN balcao_vagas');
    const a = createLimiter({ connectionString: db.appUrl, cap: 1 });
    const b = createLimiter({ connectionString: db.appUrl, cap: 1 });
    // Notifications reach a listener in commit order: once a marker sent after everything so
    // far has arrived, every earlier notification has too (no sleep, no guess at delivery time).
    let markN = 0;
    const settle = async () => {
      const mark = `marca-${++markN}`;
      await db.admin.query(`SELECT pg_notify('balcao_vagas', $1)`, [mark]);
      await expect.poll(() => marks.has(mark), { timeout: 15_000 }).toBe(true);
    };
    try {
      // No one waits: requests one after another cost no notification.
      for (let i = 0; i < 5; i++) await a.gate(() => Promise.resolve(i));
      await settle();
      expect(notified).toBe(0);
      // B waits for A's only slot: A's release tells B, which then runs.
      let aDone = 0;
      let releaseA!: () => void;
      const aHolds = new Promise<void>((r) => (releaseA = r));
      const pA = a.gate(async () => {
        await aHolds;
        aDone = performance.now();
      });
      await expect.poll(() => a.held()).toBe(1);
      let bStart = 0;
      const pB = b.gate(() => {
        bStart = performance.now();
        return Promise.resolve();
      });
      // B is waiting for the slot (it says so in the database) before A lets go.
      await expect
        .poll(async () => {
          const w = await db.admin.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks
              WHERE locktype = 'advisory' AND classid = 621 AND granted`,
          );
          return w.rows[0]!.n;
        })
        .toBeGreaterThanOrEqual(1);
      releaseA();
      await Promise.all([pA, pB]);
      expect(bStart).toBeGreaterThanOrEqual(aDone);
      // B's release travels after its call returned: it is answered before A goes on alone
      // (A's release of the same slot, meeting B's still running, would read it as a waiter).
      await Promise.all([a.settled(), b.settled()]);
      await settle();
      expect(notified).toBeGreaterThanOrEqual(1);
      // B no longer waits: back to no notifications.
      const before = notified;
      for (let i = 0; i < 5; i++) await a.gate(() => Promise.resolve(i));
      await settle();
      expect(notified).toBe(before);
      expect(a.held() + b.held()).toBe(0);
      // Nothing left behind: no session holds a slot or says it waits.
      const locks = await db.admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND classid IN (620, 621) AND granted`,
      );
      expect(locks.rows[0]!.n).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close(), listener.end()]);
    }
  });
  it('releases at the same moment in two sessions, with no one waiting, notify no one', async () => {
    // Each release asks "does anyone wait?"; two releases asking at once must not take each
    // other for a waiter (a wrong answer wakes every worker for nothing, and made the test above
    // flaky when B's release ran while A's next one did).
    const listener = new pg.Client({ connectionString: db.appUrl });
    await listener.connect();
    let notified = 0;
    let marked = false;
    listener.on('notification', (n) => {
      if (n.payload === 'marca-fim') marked = true;
      else notified++;
    });
    await listener.query('LISTEN balcao_vagas');
    const a = new pg.Client({ connectionString: db.appUrl });
    const b = new pg.Client({ connectionString: db.appUrl });
    await Promise.all([a.connect(), b.connect()]);
    try {
      let overlapped = 0;
      for (let i = 0; i < 200; i++) {
        const va = await a.query<{ v: number }>('SELECT balcao_intake_vaga(2, $1::int[]) AS v', [
          [],
        ]);
        const vb = await b.query<{ v: number }>('SELECT balcao_intake_vaga(2, $1::int[]) AS v', [
          [],
        ]);
        expect([va.rows[0]!.v, vb.rows[0]!.v]).toEqual([0, 1]);
        // Both statements sent at once: the two functions run side by side in two backends.
        const [ra, rb] = await Promise.all([
          a.query<{ n: boolean }>('SELECT balcao_intake_liberar(0) AS n'),
          b.query<{ n: boolean }>('SELECT balcao_intake_liberar(1) AS n'),
        ]);
        overlapped += [...ra.rows, ...rb.rows].filter((r) => r.n).length;
      }
      await db.admin.query(`SELECT pg_notify('balcao_vagas', 'marca-fim')`);
      await expect.poll(() => marked, { timeout: 15_000 }).toBe(true);
      expect(overlapped).toBe(0);
      expect(notified).toBe(0);
    } finally {
      await Promise.all([a.end(), b.end(), listener.end()]);
    }
  });
  it('a waiter hears of every slot it could take, whatever the caps, holding at most 16 locks', async () => {
    const waiter = new pg.Client({ connectionString: db.appUrl });
    const holder = new pg.Client({ connectionString: db.appUrl });
    await Promise.all([waiter.connect(), holder.connect()]);
    const waitLocks = async () =>
      (
        await db.admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks
            WHERE locktype = 'advisory' AND classid = 621 AND granted AND mode = 'ShareLock'`,
        )
      ).rows[0]!.n;
    // The holder takes slots 0..39 (cap 40), then frees each one: true = it notified.
    const freeEach = async (): Promise<number[]> => {
      const slots: number[] = [];
      for (let i = 0; i < 40; i++) {
        const r = await holder.query<{ v: number }>(
          'SELECT balcao_intake_vaga(40, $1::int[]) AS v',
          [slots],
        );
        slots.push(r.rows[0]!.v);
      }
      expect(slots).toEqual(Array.from({ length: 40 }, (_, i) => i));
      const told: number[] = [];
      for (const s of slots) {
        const r = await holder.query<{ n: boolean }>('SELECT balcao_intake_liberar($1) AS n', [s]);
        if (r.rows[0]!.n) told.push(s);
      }
      return told;
    };
    try {
      expect(await freeEach()).toEqual([]);
      // A worker with cap 4 waits: only slots 0..3 concern it (a slot 16 apart may wake it for
      // nothing; none it could take goes untold).
      await waiter.query('SELECT balcao_intake_espera(4)');
      expect(await waitLocks()).toBe(4);
      expect(await freeEach()).toEqual([0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35]);
      await waiter.query('SELECT balcao_intake_espera_fim(4)');
      expect(await waitLocks()).toBe(0);
      // Cap 1000 (BALCAO_MAX_EM_VOO's ceiling): 16 locks, and every slot is told.
      await waiter.query('SELECT balcao_intake_espera(1000)');
      expect(await waitLocks()).toBe(16);
      expect(await freeEach()).toEqual(Array.from({ length: 40 }, (_, i) => i));
      await waiter.query('SELECT balcao_intake_espera_fim(1000)');
      expect(await waitLocks()).toBe(0);
    } finally {
      await Promise.all([waiter.end(), holder.end()]);
    }
  });
});

describe("intake: a merchant's messages in arrival order", () => {
  it('a later message waits for the earlier one (by recebida_em); the commit names the next in line', async () => {
    const m1 = await accept(msg({ merchant: 3, texto: 'ordem-1: 150 reais pro João Silva' }));
    const m2 = await accept(msg({ merchant: 3, texto: 'ordem-2: 150 reais pro João Silva' }));
    // Arrived later at Balcão, but the channel received it first: it goes first.
    const m0 = await accept(
      msg({
        merchant: 3,
        texto: 'ordem-0: 150 reais pro João Silva',
        recebida_em: '2026-11-30T14:00:00Z',
      }),
    );
    const other = await accept(msg({ merchant: 4 }));
    expect(await processMessage(deps(), m1)).toEqual({ feito: 'aguarda_anterior', anterior: m0 });
    expect(await processMessage(deps(), m2)).toEqual({ feito: 'aguarda_anterior', anterior: m0 });
    expect(fake.requests).toHaveLength(0);
    expect(await row(m1)).toMatchObject({ estado: 'pendente' });

    // While m0 is being extracted, m1 (now first pending after it) still waits for it.
    const held = heldReply(reply(CLEAN));
    fake.enqueue(held.reply, reply(CLEAN), reply(CLEAN), reply(CLEAN));
    const first = processMessage(deps(), m0);
    await expect.poll(() => fake.requests.length).toBe(1);
    expect(await processMessage(deps(), m1)).toEqual({ feito: 'aguarda_anterior', anterior: m0 });
    // The last retry of m1's job gives up on it only if nobody holds it: m0's holder is alive.
    await markFailed(db.app, m0, 'última tentativa do job');
    expect(await row(m0)).toMatchObject({ estado: 'pendente' });
    // Another merchant is not held back.
    expect(await processMessage(deps(), other)).toMatchObject({ feito: 'processada' });
    held.release();
    expect(await first).toMatchObject({ feito: 'processada', proxima: m1 });
    expect(await processMessage(deps(), m1)).toMatchObject({ feito: 'processada', proxima: m2 });
    expect(await processMessage(deps(), m2)).toMatchObject({ feito: 'processada', proxima: null });
    const texts = fake.requests.map((r) => /ordem-\d/.exec(JSON.stringify(r.body))?.[0] ?? '-');
    expect(texts).toEqual(['ordem-0', '-', 'ordem-1', 'ordem-2']);
  });

  it('workers drain each merchant one message at a time in arrival order, merchants in parallel', async () => {
    fake.handle(() => ({ ...reply(CLEAN), delayMs: 100 }));
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const m = i % 2 ? 4 : 3;
      ids.push(
        await accept(
          msg({
            merchant: m,
            texto: `fila-${m}-${i}: 150 reais pro João Silva no cartão 3x, vence 04/12`,
          }),
        ),
      );
    }
    await drainWithTwoWorkers(ids, settings({ maxEmVoo: 4 }));
    const tag = (r: { body: unknown }) => /fila-(\d)-(\d+)/.exec(JSON.stringify(r.body));
    const calls = fake.requests.map(tag).filter((m) => m !== null);
    // One call per message (clean answers), each merchant's in arrival order …
    expect(calls).toHaveLength(12);
    const of = (m: string) => calls.filter((c) => c[1] === m).map((c) => Number(c[2]));
    expect(of('3')).toEqual([0, 2, 4, 6, 8, 10]);
    expect(of('4')).toEqual([1, 3, 5, 7, 9, 11]);
    // … one at a time: a merchant's call starts after its previous message was concluded.
    const done = await db.admin.query<{ id: string; merchant_id: string; processada_em: Date }>(
      `SELECT id, merchant_id, processada_em FROM mensagens WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    );
    expect(done.rows.every((r) => r.processada_em !== null)).toBe(true);
    for (const m of ['3', '4']) {
      const times = done.rows.filter((r) => r.merchant_id === m).map((r) => +r.processada_em);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    const reqs = fake.requests.filter((r) => tag(r) !== null);
    const seq3 = reqs.filter((r) => tag(r)![1] === '3').map((r) => r.at);
    for (let i = 1; i < seq3.length; i++)
      expect(seq3[i]! - seq3[i - 1]!).toBeGreaterThanOrEqual(55);
    // The two merchants did run side by side (the order is per merchant, not global).
    expect(fake.peakConcurrency()).toBeGreaterThanOrEqual(2);
  });
});

describe('intake: workers (pg-boss) drain the queue', () => {
  it('two workers, many messages: each message extracted once, cap respected, outcomes stored', async () => {
    const s = settings({ maxEmVoo: 3 });
    fake.handle(() => ({ ...reply(CLEAN), delayMs: 50 }));
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(
        await accept(
          msg({
            merchant: 1 + (i % 2),
            texto: `lote-${i}: 150 reais pro João Silva no cartão 3x, vence 04/12`,
          }),
        ),
      );
    }
    await drainWithTwoWorkers(ids, s);
    const done = await db.admin.query<{ resultado: string; n: number }>(
      `SELECT resultado, count(*)::int AS n FROM mensagens WHERE id = ANY($1::bigint[]) GROUP BY 1`,
      [ids],
    );
    expect(done.rows).toEqual([{ resultado: 'cobranca_criada', n: 12 }]);
    // Earlier tests left unprocessed messages in the queue too; count this batch's calls.
    const ours = fake.requests.filter((r) => JSON.stringify(r.body).includes('lote-'));
    expect(ours).toHaveLength(12);
    expect(fake.peakConcurrency()).toBeLessThanOrEqual(3);
  });
});
