/**
 * The eval runner: reads a suite's JSONL cases, runs them (bounded concurrency) through the
 * suite's model path, aggregates per-field accuracy, prints each failing case's diff, and
 * records / replays the model's tool inputs (evals/recorded/<suite>.jsonl).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '@shared/errors';
import { issueList } from '@shared/validation';
import { z } from '@shared/zod';
import { resourcesDir } from '../util/paths';
import type { Diferenca, EvalRunContext, EvalSuite, VereditoSql } from './types';

export function projectRoot(): string {
  return resolve(resourcesDir(), '..');
}

export interface CasoLido<C> {
  /** 1-based line in the JSONL file. */
  linha: number;
  caso: C;
}

/** Reads and validates every non-empty line; a malformed line fails with its line number. */
export function readCases<C>(suite: EvalSuite<C>, file: string): CasoLido<C>[] {
  if (!existsSync(file)) {
    throw new AppError('nao_encontrado', `Arquivo de casos não encontrado: ${file}`);
  }
  const out: CasoLido<C>[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new AppError('entrada_invalida', `${file}, linha ${i + 1}: JSON inválido.`);
      }
      try {
        out.push({ linha: i + 1, caso: suite.parse(raw) });
      } catch (e) {
        const why = e instanceof z.ZodError ? issueList(e).join('; ') : String(e);
        throw new AppError('entrada_invalida', `${file}, linha ${i + 1}: ${why}`);
      }
    });
  return out;
}

export interface ResultadoCaso {
  linha: number;
  texto: string;
  hoje: string;
  ok: boolean;
  campos: string[];
  diferencas: Diferenca[];
  erro?: string;
  veredito?: VereditoSql;
  entradas: unknown[];
}

export interface RelatorioSuite {
  suite: string;
  /** The model that answered; null for a replay (no model was called). */
  modelo: string | null;
  /**
   * Present for a replay of recorded answers: how many were written by hand and how many were
   * recorded from which model — a replay measures the product's path, never a model's accuracy.
   */
  repeticao?: { manuais: number; do_modelo: number; modelos: string[] };
  casos: ResultadoCaso[];
  /** Per field: cases where it was compared and matched. */
  porCampo: Record<string, { acertos: number; total: number }>;
  acertos: number;
  total: number;
  /** Suites that compare results (sql): cases per verdict. */
  vereditos?: Record<VereditoSql, number>;
}

const VEREDITOS: readonly VereditoSql[] = ['igual', 'diferente', 'recusada', 'erro'];

export function summarize(suite: string, modelo: string, casos: ResultadoCaso[]): RelatorioSuite {
  const porCampo: Record<string, { acertos: number; total: number }> = {};
  for (const c of casos) {
    const errados = new Set(c.diferencas.map((d) => d.campo));
    for (const campo of c.campos) {
      const s = (porCampo[campo] ??= { acertos: 0, total: 0 });
      s.total += 1;
      if (!errados.has(campo)) s.acertos += 1;
    }
  }
  const comVeredito = casos.filter((c) => c.veredito);
  return {
    suite,
    modelo,
    casos,
    porCampo,
    acertos: casos.filter((c) => c.ok).length,
    total: casos.length,
    ...(comVeredito.length
      ? {
          vereditos: Object.fromEntries(
            VEREDITOS.map((v) => [v, comVeredito.filter((c) => c.veredito === v).length]),
          ) as Record<VereditoSql, number>,
        }
      : {}),
  };
}

export async function runSuite<C>(
  suite: EvalSuite<C>,
  casos: CasoLido<C>[],
  ctx: EvalRunContext,
  opts: { concurrency?: number; onCase?: (done: number, total: number) => void } = {},
): Promise<RelatorioSuite> {
  const results: ResultadoCaso[] = new Array<ResultadoCaso>(casos.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < casos.length; i = next++) {
      const { linha, caso } = casos[i]!;
      const r = await suite.executar(caso, ctx);
      results[i] = {
        linha,
        texto: suite.texto(caso),
        hoje: suite.hoje(caso),
        ok: r.comparacao.ok && !r.erro,
        campos: r.comparacao.campos,
        diferencas: r.comparacao.diferencas,
        ...(r.erro ? { erro: r.erro } : {}),
        ...(r.veredito ? { veredito: r.veredito } : {}),
        entradas: r.entradas,
      };
      opts.onCase?.(++done, casos.length);
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 4, casos.length));
  await Promise.all(Array.from({ length: n }, worker));
  return summarize(suite.nome, ctx.config.model, results);
}

const pct = (a: number, t: number) =>
  t === 0 ? '—' : `${((a / t) * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;

const show = (v: unknown) => (v === undefined ? '(ausente)' : JSON.stringify(v));

/** A report turned into a replay's: no model named as the one that answered. */
export function comoRepeticao(r: RelatorioSuite, gravacoes: readonly Gravacao[]): RelatorioSuite {
  // The recordings of the cases this run scored (a file may hold more).
  const casos = new Set(r.casos.map((c) => `${c.hoje}\u0000${JSON.stringify(c.texto)}`));
  const usadas = gravacoes.filter((g) => casos.has(`${g.hoje}\u0000${JSON.stringify(g.texto)}`));
  const doModelo = usadas.filter((g) => g.origem === 'modelo');
  return {
    ...r,
    modelo: null,
    repeticao: {
      manuais: usadas.length - doModelo.length,
      do_modelo: doModelo.length,
      modelos: [...new Set(doModelo.map((g) => g.modelo))].sort(),
    },
  };
}

function origemDaRepeticao(x: NonNullable<RelatorioSuite['repeticao']>): string {
  const partes: string[] = [];
  if (x.manuais) partes.push(`${x.manuais} ${x.manuais === 1 ? 'escrita' : 'escritas'} à mão`);
  if (x.do_modelo)
    partes.push(
      `${x.do_modelo} ${x.do_modelo === 1 ? 'gravada' : 'gravadas'} de ${x.modelos.join(', ')}`,
    );
  return partes.length ? partes.join(', ') : 'nenhuma resposta gravada';
}

/** The report people read: accuracy per field, then every failing case with its diff. */
export function formatRelatorio(r: RelatorioSuite): string {
  const cabecalho = r.repeticao
    ? `Suíte ${r.suite} — repetição de respostas gravadas (${origemDaRepeticao(r.repeticao)}); nenhum modelo foi chamado, isto não mede a precisão de um modelo: ${r.acertos} de ${r.total} casos corretos (${pct(r.acertos, r.total)}).`
    : `Suíte ${r.suite} (modelo ${r.modelo}): ${r.acertos} de ${r.total} casos corretos (${pct(r.acertos, r.total)}).`;
  const out: string[] = [cabecalho, '', 'Acerto por campo:'];
  if (r.vereditos) {
    const v = r.vereditos;
    out.splice(
      1,
      0,
      `Vereditos: ${v.igual} igual, ${v.diferente} diferente, ${v.recusada} recusada pela guarda, ${v.erro} erro.`,
    );
  }
  const width = Math.max(...Object.keys(r.porCampo).map((k) => k.length), 5);
  for (const [campo, s] of Object.entries(r.porCampo)) {
    out.push(
      `  ${campo.padEnd(width)}  ${String(s.acertos).padStart(3)}/${s.total}  ${pct(s.acertos, s.total)}`,
    );
  }
  const falhas = r.casos.filter((c) => !c.ok);
  if (falhas.length) {
    out.push('', `Casos com diferença (${falhas.length}):`);
    for (const c of falhas) {
      out.push(
        `  linha ${c.linha} [hoje ${c.hoje}]${c.veredito ? ` ${c.veredito}:` : ''} ${JSON.stringify(c.texto)}`,
      );
      if (c.erro) out.push(`    erro: ${c.erro}`);
      for (const d of c.diferencas) {
        out.push(`    ${d.campo}: esperado ${show(d.esperado)}, obtido ${show(d.obtido)}`);
      }
    }
  }
  return out.join('\n');
}

// ---- recordings ------------------------------------------------------------------------

export const Gravacao = z.strictObject({
  texto: z.string(),
  hoje: z.string(),
  /** The tool input of each model attempt, in order. */
  respostas: z.array(z.unknown()),
  modelo: z.string(),
  gravado_em: z.string(),
  /**
   * 'modelo': recorded from a real model run (`balcao eval --record`).
   * 'fixture_manual': written by hand (the expected answer), so CI exercises the replay path;
   * it says nothing about real model accuracy.
   */
  origem: z.enum(['modelo', 'fixture_manual']),
});
export type Gravacao = z.infer<typeof Gravacao>;

export function recordingsFile(root: string, suite: string): string {
  return join(root, 'evals', 'recorded', `${suite}.jsonl`);
}

export function readRecordings(file: string): Gravacao[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return Gravacao.parse(JSON.parse(l));
      } catch {
        throw new AppError('entrada_invalida', `${file}, linha ${i + 1}: gravação inválida.`);
      }
    });
}

/** Writes the responses of a run (replacing the file: one line per case). */
export function writeRecordings(file: string, r: RelatorioSuite, gravadoEm: Date): number {
  mkdirSync(dirname(file), { recursive: true });
  const lines = r.casos
    .filter((c) => c.entradas.length > 0)
    .map((c) =>
      JSON.stringify({
        texto: c.texto,
        hoje: c.hoje,
        respostas: c.entradas,
        modelo: r.modelo ?? 'desconhecido',
        gravado_em: gravadoEm.toISOString(),
        origem: 'modelo',
      } satisfies Gravacao),
    );
  writeFileSync(file, lines.length ? `${lines.join('\n')}\n` : '');
  return lines.length;
}

interface RequestBody {
  system?: unknown;
  messages?: { role: string; content: unknown }[];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (b && typeof b === 'object' && 'text' in b ? String(b.text) : ''))
      .join('\n');
  }
  return '';
}

/**
 * The recorded tool input that answers a Messages API request: the recording whose `hoje`
 * appears in the prompt (the system prompt, or the first user turn for the free-SQL tool) and
 * whose text is in the first user turn (the longest such text), at the attempt given by how
 * many assistant turns the request carries.
 */
export function replayInput(gravacoes: readonly Gravacao[], body: RequestBody): unknown {
  const system = textOf(body.system);
  const first = textOf(body.messages?.[0]?.content);
  const attempt = (body.messages ?? []).filter((m) => m.role === 'assistant').length;
  const g = gravacoes
    .filter(
      (x) =>
        (system.includes(`(${x.hoje})`) || first.includes(`(${x.hoje})`)) &&
        first.includes(x.texto),
    )
    .sort((a, b) => b.texto.length - a.texto.length)[0];
  return g?.respostas[attempt];
}
