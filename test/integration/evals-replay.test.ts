/**
 * CI replay of recorded model responses: the fake Messages API serves evals/recorded/<suite>.jsonl,
 * the real SDK and the product's own tool loop run every case, and the same field-by-field
 * comparison as `npx balcao eval` scores them.
 *
 * NOTE: evals/recorded/consultas.jsonl is a hand-written fixture (origem "fixture_manual"), not
 * real model output: this test proves the replay path, the correction loop and the comparison,
 * not the model's accuracy.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  SUITES,
  createEvalSqlDatabase,
  formatRelatorio,
  projectRoot,
  readCases,
  readRecordings,
  recordingsFile,
  replayInput,
  runSuite,
  type Gravacao,
  type RelatorioSuite,
} from '../../src-main/evals';
import { main } from '../../src-main/cli/main';
import type { CliIO } from '../../src-main/cli/io';
import { suiteConsultas } from '../../src-main/evals/consultas';
import { createMemorySettings } from '../../src-main/settings/memory';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
} from '../support/fake-anthropic';

let fake: FakeAnthropic;
let db: TestDatabase;
beforeAll(async () => {
  [fake, db] = await Promise.all([startFakeAnthropic(), createTestDatabase()]);
});
afterAll(() => Promise.all([fake.close(), db.drop()]));
beforeEach(() => fake.reset());

const root = projectRoot();
const settings = createMemorySettings(
  // A current model name: the SDK warns on every request for deprecated ones.
  { timeZone: 'America/Sao_Paulo', maxAttempts: 3, model: 'claude-sonnet-4-6' },
  {},
);

function ctx() {
  return {
    client: new Anthropic({ apiKey: 'replay', baseURL: fake.url, maxRetries: 0, timeout: 5000 }),
    settings,
    config: settings.get(),
  };
}

function serve(gravacoes: readonly Gravacao[], ferramenta: string) {
  fake.handle((req) => {
    const input = replayInput(gravacoes, req.body);
    return input === undefined
      ? statusReply(400, { message: 'sem gravação para esta requisição' })
      : toolUseReply(ferramenta, input);
  });
}

describe('eval cases', () => {
  it('consultas.jsonl has at least 60 valid cases covering the required kinds', () => {
    const casos = readCases(suiteConsultas, join(root, suiteConsultas.arquivo)).map((c) => c.caso);
    expect(casos.length).toBeGreaterThanOrEqual(60);
    const txt = casos.map((c) => c.pergunta.toLowerCase());
    const esclarecimentos = casos.filter((c) => 'pergunta_esclarecimento' in c.esperado);
    expect(esclarecimentos.length).toBeGreaterThanOrEqual(10);
    // Monday "semana passada" on more than one Monday (one crossing a year end).
    const mondays = casos.filter(
      (c) =>
        c.esperado.periodo === 'semana_passada' &&
        new Date(`${c.hoje}T12:00:00Z`).getUTCDay() === 1,
    );
    expect(new Set(mondays.map((c) => c.hoje)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(casos.map((c) => new Date(`${c.hoje}T12:00:00Z`).getUTCDay())).size).toBe(7);
    for (const s of ['pics', 'cartao de debito', 'loja do lado', 'debto', 'qnto']) {
      expect(
        txt.some((t) => t.includes(s)),
        s,
      ).toBe(true);
    }
  });
});

describe('replay of recorded responses through the fake Messages API', () => {
  for (const nome of Object.keys(SUITES)) {
    const suite = SUITES[nome]!;
    const casesFile = join(root, suite.arquivo);
    const recFile = recordingsFile(root, nome);
    const present = existsSync(casesFile) && existsSync(recFile);
    it.skipIf(!present)(
      `${nome}: every case replays and scores through the same comparison`,
      async () => {
        const casos = readCases(suite, casesFile);
        const gravacoes = readRecordings(recFile);
        serve(gravacoes, suite.ferramenta);
        // Suites that compare results (sql) run on their own fixed data, as `balcao eval` does.
        const evalDb = suite.precisaBanco
          ? await createEvalSqlDatabase(db.adminUrl, db.analyticsUrl)
          : undefined;
        const rel = await runSuite(
          suite,
          casos,
          {
            ...ctx(),
            ...(evalDb
              ? { sqlDb: { analytics: evalDb.analytics, merchantId: evalDb.merchantId } }
              : {}),
          },
          { concurrency: 4 },
        ).finally(() => evalDb?.drop());
        expect(fake.unexpected).toEqual([]);
        expect(rel.casos.filter((c) => c.erro)).toEqual([]);
        expect(rel.total).toBe(casos.length);
        // Every recorded attempt was served once; corrections went back as is_error tool results.
        expect(fake.requests).toHaveLength(gravacoes.reduce((s, g) => s + g.respostas.length, 0));
        const corrections = fake.requests.filter((r) =>
          (r.body.messages as { content: unknown }[]).some(
            (m) =>
              Array.isArray(m.content) && m.content.some((b: { is_error?: boolean }) => b.is_error),
          ),
        );
        expect(corrections).toHaveLength(gravacoes.filter((g) => g.respostas.length > 1).length);
        if (gravacoes.every((g) => g.origem === 'fixture_manual')) {
          // A hand-made fixture is the expected answer: anything but 100% is a bug in the path.
          expect(formatRelatorio(rel)).toContain(
            `${rel.total} de ${rel.total} casos corretos (100%)`,
          );
        }
      },
      120_000,
    );
  }

  it('reports per-field accuracy and the diff of each failing case', async () => {
    const casos = readCases(suiteConsultas, join(root, suiteConsultas.arquivo));
    const gravacoes = readRecordings(recordingsFile(root, 'consultas')).map((g) => {
      if (g.texto === 'quanto vendi no pics ontem') {
        // Forgets the Pix filter.
        return { ...g, respostas: [{ metrica: 'total_bruto', periodo: 'ontem' }] };
      }
      if (g.texto === 'mostre as vendas da loja do lado') {
        // Answers instead of asking.
        return { ...g, respostas: [{ metrica: 'total_bruto', periodo: 'hoje' }] };
      }
      if (g.texto === 'quanto vendi no crédito parcelado em março?') {
        // Invalid three times: the loop gives up.
        const bad = { metrica: 'total_bruto', data_inicio: '2026-03-01' };
        return { ...g, respostas: [bad, bad, bad] };
      }
      return g;
    });
    serve(gravacoes, suiteConsultas.ferramenta);
    const rel = await runSuite(suiteConsultas, casos, ctx(), { concurrency: 4 });
    expect(rel.total - rel.acertos).toBe(3);
    expect(rel.porCampo.modalidades).toEqual({
      acertos: rel.porCampo.modalidades!.total - 2,
      total: rel.porCampo.modalidades!.total,
    });
    const text = formatRelatorio(rel);
    expect(text).toContain(`${rel.total - 3} de ${rel.total} casos corretos`);
    expect(text).toMatch(
      /"quanto vendi no pics ontem"\n\s+modalidades: esperado "pix", obtido "todas"/,
    );
    expect(text).toMatch(
      /"mostre as vendas da loja do lado"\n\s+tipo: esperado "esclarecimento", obtido "consulta"/,
    );
    expect(text).toMatch(/erro: consulta inválida após 3 tentativa\(s\): Informe também data_fim/);
    expect(text).toMatch(/Acerto por campo:\n\s+tipo\s+\d+\/\d+/);
  });
});

describe('balcao eval (CLI) against the fake Messages API', () => {
  it('prints per-field accuracy as JSON and --record writes what the model answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-eval-'));
    try {
      mkdirSync(join(dir, 'evals'));
      // A small suite: three cases from the real file.
      const lines = readFileSync(join(root, 'evals/consultas.jsonl'), 'utf8').split('\n');
      writeFileSync(join(dir, 'evals/consultas.jsonl'), lines.slice(0, 3).join('\n'));
      const gravacoes = readRecordings(recordingsFile(root, 'consultas'));
      serve(gravacoes, 'consultar_vendas');
      let out = '';
      const io: CliIO = { out: (t) => void (out += t), err: () => undefined, isTTY: false };
      const code = await main(
        ['eval', '--suite', 'consultas', '--record', '--dir', dir, '--json'],
        io,
        {
          ANTHROPIC_API_KEY: 'replay',
          ANTHROPIC_BASE_URL: fake.url,
          ANTHROPIC_MODEL: 'claude-sonnet-4-6',
          BALCAO_LOG_LEVEL: 'silent',
        },
      );
      expect(code).toBe(0);
      const j = JSON.parse(out) as { suites: RelatorioSuite[]; avisos: string[] };
      expect(j.suites[0]).toMatchObject({ suite: 'consultas', acertos: 3, total: 3 });
      expect(j.suites[0]!.porCampo.metrica).toEqual({ acertos: 3, total: 3 });
      expect(j.avisos).toEqual([
        'Suíte consultas: 3 respostas gravadas em evals/recorded/consultas.jsonl.',
      ]);
      const written = readRecordings(recordingsFile(dir, 'consultas'));
      expect(written).toHaveLength(3);
      expect(written.every((g) => g.origem === 'modelo' && g.modelo === 'claude-sonnet-4-6')).toBe(
        true,
      );
      // What was recorded is exactly what the API answered, attempt by attempt.
      expect(written.map((g) => g.respostas)).toEqual(
        gravacoes.slice(0, 3).map((g) => g.respostas),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
