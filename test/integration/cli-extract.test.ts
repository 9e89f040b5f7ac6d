import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DadosCobranca } from '../../src-shared/extraction-types';
import { chargeData, CHARGE_TEXT } from '../support/charges';
import { cliEnv, runCliLines, runCliUntrimmed } from '../support/cli';
import { createTestDatabase, type TestDatabase } from '../support/db';
import {
  startFakeAnthropic,
  statusReply,
  toolUseReply,
  type FakeAnthropic,
  type FakeReply,
} from '../support/fake-anthropic';

const ROOT = resolve(__dirname, '../..');
const MERCHANT = 3;
const TEXTO = CHARGE_TEXT;

let db: TestDatabase;
let fake: FakeAnthropic;
let tmp: string;

beforeAll(async () => {
  [db, fake] = await Promise.all([createTestDatabase(), startFakeAnthropic()]);
  await db.admin.query(
    `INSERT INTO merchants (id, nome) VALUES (${MERCHANT}, 'Loja CLI'), (4, 'Outra Loja')`,
  );
  tmp = mkdtempSync(join(tmpdir(), 'balcao-cli-'));
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await Promise.all([db.drop(), fake.close()]);
});
beforeEach(() => fake.reset());

function env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return cliEnv(db, {
    ANTHROPIC_API_KEY: 'sk-cli',
    ANTHROPIC_BASE_URL: fake.url,
    BALCAO_MAX_RETRIES: '1',
    BALCAO_DATA_DIR: tmp,
    ...extra,
  });
}

const run = (argv: string[], e: NodeJS.ProcessEnv = env()) => runCliLines(argv, e);

/** `extract TEXTO` for the CLI merchant on Monday 16/03/2026, then `more`. */
const extractArgs = (...more: string[]) => [
  'extract',
  TEXTO,
  '--merchant',
  String(MERCHANT),
  '--hoje',
  '2026-03-16',
  ...more,
];
/** `extract --file` for the CLI merchant on Monday 16/03/2026 at `concorrencia`, then `more`. */
const fileArgs = (file: string, concorrencia: string, ...more: string[]) => [
  'extract',
  '--file',
  file,
  '--merchant',
  String(MERCHANT),
  '--hoje',
  '2026-03-16',
  '--concorrencia',
  concorrencia,
  ...more,
];

const charge = chargeData;
const reply = (patch: Partial<DadosCobranca> = {}): FakeReply =>
  toolUseReply('registrar_cobranca', charge(patch), {
    usage: { input_tokens: 1000, output_tokens: 100 },
  });

async function count(): Promise<number> {
  return (await db.admin.query('SELECT count(*)::int AS n FROM extracoes')).rows[0].n;
}

describe('balcao extract (in process: main(argv, io, env))', () => {
  it('--json prints one object with the issue fields; the row is stored; --hoje fixes the date', async () => {
    fake.enqueue(reply());
    const r = await run(extractArgs('--json'));
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const j = JSON.parse(lines[0]!);
    expect(j).toMatchObject({
      status: 'completo',
      tentativas: 1,
      dados: charge(),
      erros: [],
      alertas: [],
      uso: {
        input_tokens: 1000,
        output_tokens: 100,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        custo_estimado_usd: 0.0045,
      },
      merchant_id: MERCHANT,
      hoje: '2026-03-16',
      fila_estado: 'concluida',
    });
    expect(Object.keys(j.dados)).toHaveLength(7);
    expect(fake.requests[0]!.body.system[0].text).toContain('segunda-feira, 16/03/2026');
    const row = (await db.admin.query('SELECT * FROM extracoes WHERE id = $1', [j.extracao_id]))
      .rows[0];
    expect(row).toMatchObject({
      merchant_id: MERCHANT,
      texto: TEXTO,
      status: 'completo',
      hoje: '2026-03-16',
    });
  });

  it('falhou is a result: exit 0, erros is a list of strings', async () => {
    fake.enqueue(reply({ parcelas: 13 }), reply({ parcelas: 13 }), reply({ parcelas: 13 }));
    const r = await run(extractArgs('--json'));
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.status).toBe('falhou');
    expect(j.tentativas).toBe(3);
    expect(j.erros).toEqual([
      'parcelas: O número de parcelas deve ficar entre 1 e 12; recebido 13.',
    ]);
    expect(j.fila_estado).toBe('aberta');
  });

  it('human output shows the charge in pt-BR and where it went', async () => {
    fake.enqueue(reply({ valor_centavos: 150 }));
    const r = await run(extractArgs());
    expect(r.code).toBe(0);
    expect(r.out).toContain('Status: completo (1 tentativa)');
    expect(r.out).toMatch(/Valor:\s+R\$\s1,50/);
    expect(r.out).toContain('Vencimento: 20/03/2026 (sexta-feira)');
    expect(r.out).toContain('Alerta: O valor extraído');
    expect(r.out).toMatch(/Extração #\d+ gravada e enviada à fila de revisão\./);
  });

  it('without a key: clear pt-BR message, exit 1, no request, nothing stored', async () => {
    const before = await count();
    const r = await run(['extract', TEXTO, '--json'], env({ ANTHROPIC_API_KEY: undefined }));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).erro).toMatch(/ANTHROPIC_API_KEY/);
    const h = await run(['extract', TEXTO], env({ ANTHROPIC_API_KEY: '' }));
    expect(h.code).toBe(1);
    expect(h.err).toMatch(/^balcao: Nenhuma chave da API da Anthropic configurada\. Defina/);
    expect(fake.requests).toHaveLength(0);
    expect(await count()).toBe(before);
  });

  it('argument errors exit 2 with pt-BR messages, before any request', async () => {
    for (const argv of [
      ['extract', TEXTO, '--hoje', '2026-02-30'],
      ['extract', TEXTO, '--merchant', 'abc'],
      ['extract'],
      ['extract', '   '],
      ['extract', TEXTO, '--file', 'x.jsonl'],
      ['extract', TEXTO, '--concorrencia', '99'],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/^balcao: /);
    }
    expect((await run(['extract', TEXTO, '--hoje', '2026-02-30'])).err).toContain(
      'use uma data real no formato AAAA-MM-DD',
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('API errors exit 1 with a pt-BR message; unknown merchant exits 1 without calling the model', async () => {
    fake.enqueue(statusReply(400));
    const r = await run(['extract', TEXTO, '--merchant', String(MERCHANT), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).erro).toContain('A API da Anthropic recusou a requisição (400');
    fake.reset();
    const m = await run(['extract', TEXTO, '--merchant', '999']);
    expect(m.code).toBe(1);
    expect(m.err).toContain('Lojista 999 não encontrado');
    expect(fake.requests).toHaveLength(0);
  });

  it('--complementar re-runs an incompleto extraction with the merchant answer', async () => {
    fake.enqueue(reply({ metodo: null, parcelas: null, faltando: ['metodo', 'parcelas'] }));
    const first = JSON.parse(
      (
        await run([
          'extract',
          'cobra 150 reais do João Silva, vence sexta',
          '--merchant',
          String(MERCHANT),
          '--hoje',
          '2026-03-16',
          '--json',
        ])
      ).out,
    );
    expect(first.status).toBe('incompleto');
    fake.enqueue(reply());
    const r = await run([
      'extract',
      'no cartão em 3x',
      '--complementar',
      String(first.extracao_id),
      '--hoje',
      '2026-03-16',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      status: 'completo',
      extracao_id: first.extracao_id,
      rodada: 2,
    });
  });
});

describe('balcao extract --file (batch)', () => {
  it('processes every line with bounded concurrency, per-line hoje and merchant; one JSON summary', async () => {
    const file = join(tmp, 'mensagens.jsonl');
    const lines = [
      { texto: 'A: 150 reais no cartão em 3x pro João Silva, vence sexta' },
      { texto: 'B: pix de 80 reais pra Maria', merchant_id: 4 },
      // A boleto carries the payer's CPF (#36.4); the model sees and copies its placeholder.
      {
        texto: 'C: boleto de R$ 1.500,50 pro Zé, CPF 529.982.247-25, vence dia 20',
        hoje: '2026-03-18',
      },
      { texto: 'D: 150 reais pro João Silva no cartão em 3x', esperado: { status: 'completo' } },
      { texto: 'E: R$ 99 no cartão' },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n\n');
    fake.handle((req) => {
      const text: string = req.body.messages[0].content;
      const delayMs = 60;
      if (text.includes('B: pix')) {
        return toolUseReply(
          'registrar_cobranca',
          charge({
            valor_centavos: 8000,
            metodo: 'pix',
            parcelas: 1,
            cliente_nome: 'Maria',
            vencimento: null,
            faltando: ['vencimento'],
          }),
          { delayMs },
        );
      }
      if (text.includes('C: boleto')) {
        expect(req.body.system[0].text).toContain('quarta-feira, 18/03/2026');
        return toolUseReply(
          'registrar_cobranca',
          charge({
            valor_centavos: 150050,
            metodo: 'boleto',
            parcelas: 1,
            cliente_nome: 'Zé',
            cliente_documento: '[CPF_1]',
          }),
          { delayMs },
        );
      }
      return toolUseReply('registrar_cobranca', charge(), { delayMs });
    });
    const before = await count();
    const r = await run(fileArgs(file, '2', '--json'));
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.total).toBe(5);
    expect(j.por_status).toEqual({ completo: 4, incompleto: 1, falhou: 0 });
    expect(j.com_erro).toBe(0);
    expect(j.resultados.map((x: { linha: number }) => x.linha)).toEqual([1, 2, 3, 4, 5]);
    expect(j.resultados[1]).toMatchObject({ merchant_id: 4, status: 'incompleto' });
    expect(j.resultados[2]).toMatchObject({ hoje: '2026-03-18', merchant_id: MERCHANT });
    expect(j.resultados[4].alertas[0].codigo).toBe('valor_divergente'); // R$ 99 vs 150,00
    expect(fake.requests).toHaveLength(5);
    expect(fake.peakConcurrency()).toBe(2);
    expect(await count()).toBe(before + 5);
    expect(j.uso.input_tokens).toBe(500);
  });

  it('the progress bar counts each finished line once: it ends at 3/3, on a fresh run and a re-run (#41.6)', async () => {
    const file = join(tmp, 'progresso.jsonl');
    const textos = ['P1: pix de 10 reais', 'P2: pix de 20 reais', 'P3: pix de 30 reais'];
    writeFileSync(file, textos.map((texto) => JSON.stringify({ texto })).join('\n') + '\n');
    fake.handle(() => toolUseReply('registrar_cobranca', charge()));
    const counts = async (): Promise<Array<[number, number]>> => {
      let written = '';
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
        written += String(chunk);
        return true;
      });
      try {
        const r = await runCliUntrimmed(fileArgs(file, '1'), env(), { isTTY: true });
        expect(r.code).toBe(0);
      } finally {
        spy.mockRestore();
      }
      return [...written.matchAll(/(\d+)\/(\d+) mensagens/g)].map((m) => [
        Number(m[1]),
        Number(m[2]),
      ]);
    };
    for (const seen of [await counts(), await counts()]) {
      expect(seen.length).toBeGreaterThan(1);
      for (const [done, total] of seen) {
        expect(total).toBe(3);
        expect(done).toBeLessThanOrEqual(3);
      }
      expect(seen.at(-1)).toEqual([3, 3]);
    }
    expect(fake.requests).toHaveLength(3); // the re-run found every line stored
  });

  it('a bad line refuses the whole file up front (exit 2, line number), nothing sent', async () => {
    const file = join(tmp, 'ruim.jsonl');
    writeFileSync(file, '{"texto":"ok 150 reais"}\n{"texto": 3}\n');
    const r = await run(['extract', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('ruim.jsonl, linha 2: texto:');
    writeFileSync(file, '{"texto":"ok"}\nnão é json\n');
    expect((await run(['extract', '--file', file])).err).toContain('linha 2: JSON inválido');
    expect((await run(['extract', '--file', join(tmp, 'nao-existe.jsonl')])).code).toBe(2);
    expect(fake.requests).toHaveLength(0);
  });

  it('API errors on some lines: the rest is stored, exit 1', async () => {
    const file = join(tmp, 'parcial.jsonl');
    writeFileSync(file, '{"texto":"um: 150 reais"}\n{"texto":"dois: 150 reais"}\n');
    fake.handle((req) =>
      String(req.body.messages[0].content).includes('dois')
        ? statusReply(400)
        : toolUseReply('registrar_cobranca', charge()),
    );
    const before = await count();
    const r = await run(fileArgs(file, '1'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('linha 1: completo');
    expect(r.out).toContain('linha 2: erro — A API da Anthropic recusou a requisição (400');
    expect(r.err).toContain('1 mensagem não foi processada');
    expect(await count()).toBe(before + 1);

    // With --json: exactly one JSON object on stdout (the summary), still exit 1.
    const j = await run(fileArgs(file, '1', '--json'));
    expect(j.code).toBe(1);
    const lines = j.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('erro');
  });
});

describe('real subprocess: node src-main/cli/bin.mjs extract … --json', () => {
  it('runs against the fake API and the test database', async () => {
    fake.enqueue(reply());
    const before = await count();
    const { code, stdout } = await new Promise<{ code: number; stdout: string; stderr: string }>(
      (done) => {
        execFile(
          process.execPath,
          ['src-main/cli/bin.mjs', ...extractArgs('--json')],
          {
            cwd: ROOT,
            env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env() },
            timeout: 60_000,
          },
          (error, stdout, stderr) =>
            done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      },
    );
    expect(code).toBe(0);
    const j = JSON.parse(stdout.trim());
    expect(j).toMatchObject({ status: 'completo', tentativas: 1, erros: [], alertas: [] });
    expect(j.extracao_id).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
    expect(await count()).toBe(before + 1);
    const t = await db.admin.query(
      'SELECT count(*)::int AS n FROM extracao_tentativas WHERE extracao_id = $1',
      [j.extracao_id],
    );
    expect(t.rows[0].n).toBe(1);
  });
});
