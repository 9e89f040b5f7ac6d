/**
 * #11 part 7: a CLI that scripts can trust. `--json` failures (usage errors included) print
 * `{"erro": ...}` on stdout; bare `balcao` / `balcao db` print help and exit 2; `--version`;
 * pt-BR help headings; `balcao eval` replays recorded responses without a key and exits 1 when
 * a suite is missing or a case could not run; `bin.mjs` runs the prebuilt bundle.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src-main/cli/main';
import type { CliIO } from '../../src-main/cli/io';
import { SUITES, projectRoot } from '../../src-main/evals';
import { SUITE_NAMES } from '../../src-main/evals/names';

const ROOT = projectRoot();
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const env: NodeJS.ProcessEnv = {
  BALCAO_LOG_LEVEL: 'silent',
  BALCAO_TIME_ZONE: 'America/Sao_Paulo',
  // Never reach a database or the network from these tests.
  DATABASE_URL: 'postgres://ninguem@127.0.0.1:1/nada',
};

async function run(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    isTTY: false,
  };
  const code = await main(args, io, { ...env, ...extraEnv });
  return { code, out: out.trim(), err: err.trim() };
}

describe('help, version and usage errors', () => {
  it('bare `balcao` and `balcao db` print help (pt-BR headings) on stderr and exit 2', async () => {
    const bare = await run([]);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/^Uso: balcao \[opções\] \[comando\]/);
    expect(bare.err).toContain('Opções:');
    expect(bare.err).toContain('Comandos:');
    expect(bare.err).not.toMatch(/Usage:|Options:|Commands:/);
    expect(bare.out).toBe('');
    const db = await run(['db']);
    expect(db.code).toBe(2);
    expect(db.err).toMatch(/^Uso: balcao db/);
    expect(db.err).toContain('seed-demo');
  });

  it('--help and help exit 0 with pt-BR headings; --version prints the version', async () => {
    const h = await run(['ask', '--help']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/^Uso: balcao ask \[opções\] \[pergunta\]/);
    expect(h.out).toContain('Argumentos:');
    expect(h.out).toContain('Opções:');
    expect(h.out).not.toMatch(/Usage:|Options:|Arguments:|default:/);
    const ex = await run(['extract', '--help']);
    expect(ex.out).toContain('(padrão: 4)');
    expect((await run(['help'])).code).toBe(0);
    const v = await run(['--version']);
    expect(v).toEqual({ code: 0, out: VERSION, err: '' });
    expect((await run(['-V'])).out).toBe(VERSION);
  });

  it('with --json every failure is {"erro": ...} on stdout, usage errors included (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['comando-que-nao-existe', '--json'], /comando desconhecido|opção desconhecida/],
      [['ask', '--json', '--merchant', 'x'], /valor inválido para --merchant/],
      [['ask', '--json'], /opção obrigatória --merchant/],
      [['ask', '--json', '--merchant', '1', '--hoje', '9999-12-31'], /use uma data entre/],
      [['sql', '--json', '--nao-existe'], /opção desconhecida: --nao-existe/],
      [['db', '--json'], /opção desconhecida: --json|informe um comando/],
    ];
    for (const [args, re] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      const lines = r.out.split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      const j = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(Object.keys(j)).toEqual(['erro']);
      expect(j.erro).toMatch(re);
    }
    // A failure after parsing (no database here) is one {"erro"} too, exit 1.
    const r = await run(['ask', '--json', '--merchant', '1', '--dsl', '{"metrica":"total_bruto"}']);
    expect(r.code).not.toBe(0);
    expect(Object.keys(JSON.parse(r.out) as object)).toEqual(['erro']);
  });
});

describe('balcao eval without a key replays the recorded responses', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'balcao-eval-gravadas-'));
    mkdirSync(join(dir, 'evals', 'recorded'), { recursive: true });
    const lines = readFileSync(join(ROOT, 'evals/consultas.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    writeFileSync(join(dir, 'evals/consultas.jsonl'), lines.slice(0, 4).join('\n'));
    writeFileSync(
      join(dir, 'evals/recorded/consultas.jsonl'),
      readFileSync(join(ROOT, 'evals/recorded/consultas.jsonl')),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the suite names in the help are the suites that exist', () => {
    expect([...SUITE_NAMES]).toEqual(Object.keys(SUITES));
  });

  it('no ANTHROPIC_API_KEY: replays, scores and exits 0', async () => {
    const r = await run(['eval', '--suite', 'consultas', '--dir', dir, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      suites: { total: number; acertos: number }[];
      gravadas: boolean;
      falhas: string[];
    };
    expect(j.gravadas).toBe(true);
    expect(j.falhas).toEqual([]);
    expect(j.suites[0]).toMatchObject({ total: 4, acertos: 4 });
    // A replay is no model's accuracy: no model in the JSON, where the answers came from instead.
    expect(j.suites[0]).toMatchObject({
      modelo: null,
      repeticao: { manuais: 4, do_modelo: 0, modelos: [] },
    });
  });

  it('a replay never names the configured model as the one that answered (#41.3)', async () => {
    const r = await run(['eval', '--suite', 'consultas', '--dir', dir], {
      ANTHROPIC_MODEL: 'claude-sonnet-4-6',
    });
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/modelo claude/);
    expect(r.out).not.toContain('claude-sonnet-4-6');
    expect(r.out).toContain(
      'Suíte consultas — repetição de respostas gravadas (4 escritas à mão); nenhum modelo foi chamado, isto não mede a precisão de um modelo: 4 de 4 casos corretos (100%).',
    );
  });

  it('--gravadas forces the replay even with a key (no request leaves the machine)', async () => {
    const r = await run(['eval', '--suite', 'consultas', '--dir', dir, '--gravadas'], {
      ANTHROPIC_API_KEY: 'sk-ant-nao-usar',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    });
    expect(r.code).toBe(0);
    expect(r.out).toContain('4 de 4 casos corretos');
    expect(r.out).toContain('Respostas gravadas (--gravadas)');
  });

  it('exits 1 when a suite is missing or a case could not run (no recording)', async () => {
    const missing = await run(['eval', '--dir', dir, '--json']);
    expect(missing.code).toBe(1);
    const j = JSON.parse(missing.out) as { falhas: string[] };
    expect(j.falhas.join('\n')).toMatch(/Suíte cobrancas: evals\/cobrancas.jsonl não existe/);
    // A case with no recorded response could not run.
    const other = mkdtempSync(join(tmpdir(), 'balcao-eval-sem-gravacao-'));
    try {
      mkdirSync(join(other, 'evals', 'recorded'), { recursive: true });
      writeFileSync(
        join(other, 'evals/consultas.jsonl'),
        JSON.stringify({
          pergunta: 'pergunta sem gravação nenhuma',
          hoje: '2026-03-16',
          esperado: { metrica: 'total_bruto', periodo: 'ontem' },
        }),
      );
      writeFileSync(join(other, 'evals/recorded/consultas.jsonl'), '');
      const r = await run(['eval', '--suite', 'consultas', '--dir', other]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/1 de 1 caso\(s\) não rodaram/);
      const noRec = await run(['eval', '--suite', 'consultas', '--dir', dir, '--record']);
      expect(noRec.code).toBe(2);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('bin.mjs (the installed `balcao`)', () => {
  const spawn = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        ['src-main/cli/bin.mjs', ...args],
        { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
        (error, stdout, stderr) =>
          done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('--version, --help, bare and a --json usage error, as a real process', async () => {
    const [v, h, bare, bad] = await Promise.all([
      spawn(['--version']),
      spawn(['--help']),
      spawn([]),
      spawn(['ask', '--json']),
    ]);
    expect(v).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Comandos:');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Uso: balcao');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({
      erro: 'a opção obrigatória --merchant <n> não foi informada',
    });
  });
});
