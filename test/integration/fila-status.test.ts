/**
 * `balcao fila status`: every field from a database whose state the test wrote itself (issue
 * #17, "operations view"): backlog and messages in processing, pg-boss job states, messages per
 * minute, the outcome mix of the last 24 h, the validation-failure rate against its threshold,
 * cost per hour, the oldest waiting message, items waiting for the merchant (asked by the intake
 * or by an agent) and the shared 429 pause — in JSON and in the pt-BR text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src-main/cli/io';
import { main } from '../../src-main/cli/main';
import { startBoss } from '../../src-main/intake/jobs';
import { filaStatus, formatFilaStatus } from '../../src-main/intake/status';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { dados, ensureMerchants, insertExtraction } from '../support/queue-fixtures';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await ensureMerchants(db.admin, { 1: 'Padaria Central', 2: 'Oficina do Zé' });
});
afterAll(() => db.drop());

let seq = 0;
/** A message as the intake stores it; times are SQL expressions relative to now(). */
async function mensagem(p: {
  estado?: 'pendente' | 'concluida' | 'erro';
  resultado?: string;
  enfileirada?: string;
  processada?: string;
  lease?: string;
}): Promise<number> {
  const r = await db.admin.query<{ id: string }>(
    `INSERT INTO mensagens (canal, mensagem_id, merchant_id, texto, enfileirada_em, recebida_em,
                            estado, resultado, processada_em, erro, lease_token, lease_expira_em)
     VALUES ('whatsapp', $1, 1, 'oi', now() - $2::interval, now() - $2::interval, $3, $4,
             now() - $5::interval, $6, $7, now() + $8::interval)
     RETURNING id`,
    [
      `st-${++seq}`,
      p.enfileirada ?? '1 minute',
      p.estado ?? 'pendente',
      p.resultado ?? null,
      p.processada ?? null,
      p.estado === 'erro' ? 'desistiu' : null,
      p.lease ? '00000000-0000-4000-8000-000000000001' : null,
      p.lease ?? null,
    ],
  );
  return Number(r.rows[0]!.id);
}

describe('balcao fila status', () => {
  it('reports every field from what the database holds', async () => {
    // Every age below is "N ago" at insert time; by the time of the report at most the seconds
    // this test has run have passed, so the bounds are the insert-time age plus that elapsed time.
    const t0 = Date.now();
    const ranS = () => Math.ceil((Date.now() - t0) / 1000) + 1;
    // Backlog: three pending (the oldest waiting 10 min), one held by a live worker, and one
    // whose worker's lease has expired (pending, not in processing).
    const oldest = await mensagem({ enfileirada: '10 minutes' });
    await mensagem({ enfileirada: '5 minutes', lease: '20 seconds' });
    await mensagem({ enfileirada: '2 minutes', lease: '-5 seconds' });
    // Processed: 6 within 15 min (recebidas counts the 3 pending too), 2 more today, 1 yesterday.
    const done = (resultado: string, processada: string, enfileirada = processada) =>
      mensagem({ estado: 'concluida', resultado, processada, enfileirada });
    for (let i = 0; i < 3; i++) await done('cobranca_criada', `${i + 1} minutes`);
    await done('fila', '4 minutes');
    await done('aguardando_lojista', '5 minutes');
    await done('sem_item_aberto', '6 minutes');
    await done('fila', '3 hours', '3 hours');
    await mensagem({ estado: 'erro', processada: '2 hours', enfileirada: '2 hours' });
    await done('cobranca_criada', '30 hours', '30 hours');
    // Extractions of the last 24 h: 20, of which 2 falhou (10% > the 5% threshold); cost of the
    // last hour: 5 × 0.01 + the 0.5 of an older one left out.
    for (let i = 0; i < 18; i++) {
      await insertExtraction(db.admin, {
        status: 'completo',
        dados: dados(),
        custoUsd: i < 5 ? 0.01 : 0,
        criadaEm: i < 5 ? undefined : new Date(Date.now() - 3 * 3600_000).toISOString(),
        filaEstado: 'concluida',
      });
    }
    for (let i = 0; i < 2; i++) {
      await insertExtraction(db.admin, {
        status: 'falhou',
        dados: null,
        custoUsd: 0,
        criadaEm: new Date(Date.now() - 2 * 3600_000).toISOString(),
      });
    }
    await insertExtraction(db.admin, {
      status: 'completo',
      custoUsd: 0.5,
      criadaEm: new Date(Date.now() - 30 * 3600_000).toISOString(),
      filaEstado: 'concluida',
    });
    // Waiting for the merchant: one asked by the intake (state), one by an agent (since 40 min).
    const byIntake = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ cliente_nome: null }),
      criadaEm: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    await db.admin.query(`UPDATE extracoes SET fila_estado = 'aguardando_lojista' WHERE id = $1`, [
      byIntake,
    ]);
    const byAgent = await insertExtraction(db.admin, {
      status: 'incompleto',
      dados: dados({ vencimento: null }),
      criadaEm: new Date(Date.now() - 2 * 3600_000).toISOString(),
    });
    await db.admin.query(
      `UPDATE extracoes SET aguardando_desde = now() - interval '40 minutes' WHERE id = $1`,
      [byAgent],
    );
    // pg-boss: two jobs waiting; the shared 429 pause for another 90 s.
    const boss = await startBoss(db.app);
    try {
      await boss.send('intake', { mensagem: oldest });
      await boss.send('intake', { mensagem: oldest + 1 });
    } finally {
      await boss.stop({ graceful: false, close: false, wait: true });
    }
    await db.admin.query(`UPDATE intake_limites SET pausado_ate = now() + interval '90 seconds'`);

    const s = await filaStatus(db.app, 5);
    expect(s.backlog).toEqual({
      pendentes: 3,
      em_processamento: 1,
      jobs: { created: 2, retry: 0, active: 0, failed: 0 },
    });
    // 3 pending + 6 processed enqueued within 15 min; 6 processed within 15 min; per minute.
    expect(s.mensagens_por_minuto).toEqual({ recebidas: 0.6, processadas: 0.4 });
    expect(s.resultados_24h).toEqual({
      cobranca_criada: 3,
      aguardando_lojista: 1,
      fila: 2,
      sem_item_aberto: 1,
      erro: 1,
    });
    // 18 + 2 + the two waiting items = 22 extractions in 24 h, 2 falhou.
    expect(s.falhas_validacao).toEqual({
      extracoes: 22,
      falhou: 2,
      taxa: 2 / 22,
      limite: 0.05,
      alerta: true,
    });
    expect(s.custo_por_hora_usd).toBeCloseTo(0.05, 6);
    expect(s.mais_antiga_pendente).toMatchObject({ id: oldest, canal: 'whatsapp' });
    expect(s.mais_antiga_pendente!.espera_s).toBeGreaterThanOrEqual(600);
    expect(s.mais_antiga_pendente!.espera_s).toBeLessThanOrEqual(600 + ranS());
    expect(s.aguardando_lojista.itens).toBe(2);
    const desde = Date.parse(s.aguardando_lojista.mais_antigo_desde!);
    // Database and test read the same machine clock; ±1 s for the ISO text's rounding.
    expect(Date.now() - desde).toBeGreaterThanOrEqual(40 * 60_000 - 1_000);
    expect(Date.now() - desde).toBeLessThanOrEqual((40 * 60 + ranS()) * 1000);
    const pausa = Date.parse(s.pausa_ate!) - Date.now();
    expect(pausa).toBeGreaterThanOrEqual((90 - ranS()) * 1000);
    expect(pausa).toBeLessThanOrEqual(91_000);

    // Under the threshold there is no alert.
    expect((await filaStatus(db.app, 10)).falhas_validacao.alerta).toBe(false);

    const text = formatFilaStatus(s);
    expect(text).toContain(
      'Pendentes: 3 (1 em processamento; jobs: 2 novos, 0 para tentar de novo, 0 ativos, 0 falharam)',
    );
    expect(text).toContain('Mensagens por minuto (15 min): 0,6 recebidas, 0,4 processadas');
    expect(text).toContain(
      'Resultados (24 h): 3 cobranças criadas, 1 aguardando lojista, 2 para a fila de revisão, 1 respostas sem item aberto, 1 com erro',
    );
    expect(text).toContain(
      'Falhas de validação (24 h): 9,1% de 22 extrações (limite 5%) — ALERTA: acima do limite',
    );
    expect(text).toMatch(/Mais antiga esperando: whatsapp\/st-1 há 6\d\d s/);
    expect(text).toContain('Aguardando lojista: 2 itens');
    expect(text).toContain('Pausado por limite da API (429) até');

    // The CLI prints the same object (--json) and the threshold comes from the setting.
    const out: string[] = [];
    const io: CliIO = { out: (t) => out.push(t), err: () => undefined, isTTY: false };
    const env = {
      DATABASE_URL: db.adminUrl,
      APP_DATABASE_URL: db.appUrl,
      ANALYTICS_DATABASE_URL: db.analyticsUrl,
      BALCAO_LOG_LEVEL: 'silent',
      BALCAO_ALERTA_FALHAS_VALIDACAO: '12',
    };
    expect(await main(['fila', 'status', '--json'], io, env)).toBe(0);
    const cli = JSON.parse(out.join('')) as typeof s;
    expect(cli.backlog).toEqual(s.backlog);
    expect(cli.resultados_24h).toEqual(s.resultados_24h);
    expect(cli.falhas_validacao).toMatchObject({ taxa: 2 / 22, limite: 0.12, alerta: false });
  });
});
