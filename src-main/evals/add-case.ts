/**
 * From a logged question to an eval case: the person confirms or corrects the DSL the question
 * should produce, and the case is appended to evals/consultas.jsonl with the day it was asked as
 * its reference date — so the eval file grows from real questions. The case is validated exactly
 * as `balcao eval` reads it (CasoConsulta) before anything is written.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import type { EvalCaseDraft, EvalCaseResult } from '@shared/contract/questions';
import { AppError } from '@shared/errors';
import { localDate } from '@shared/time';
import { issueList } from '@shared/validation';
import { z } from '@shared/zod';
import { CasoConsulta, suiteConsultas } from './consultas';
import type { SettingsSource } from '../settings/types';
import { projectRoot } from './runner';

/**
 * Where cases go: the configured folder (BALCAO_EVALS_DIR), else the project's evals/ folder
 * when the app runs from its sources (a packaged app has none: the setting is required there).
 */
export function evalsDir(configured: string | undefined): string | null {
  if (configured) return configured;
  const dir = join(projectRoot(), 'evals');
  return existsSync(dir) ? dir : null;
}

/** A case's options from the settings: the zone of its reference date, the folder it goes to. */
export function evalCaseOptions(settings: SettingsSource): {
  timeZone: string;
  dir: string | null;
} {
  const s = settings.get();
  return { timeZone: s.timeZone, dir: evalsDir(s.evalsDir) };
}

const casesFile = (dir: string) => join(dir, suiteConsultas.arquivo.replace(/^evals\//, ''));

interface Logged {
  pergunta: string;
  dsl: unknown;
  criada_em: Date;
}

async function loadQuestion(app: pg.Pool, id: number): Promise<Logged> {
  const { rows } = await app.query<Logged>(
    `SELECT pergunta, dsl, criada_em FROM perguntas_registradas
      WHERE id = $1 AND origem = 'pergunta' AND pergunta IS NOT NULL`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('nao_encontrado', `Pergunta ${id} não encontrada no registro.`);
  return row;
}

export async function evalCaseDraft(
  app: pg.Pool,
  id: number,
  opts: { timeZone: string; dir: string | null },
): Promise<EvalCaseDraft> {
  const q = await loadQuestion(app, id);
  const sugerido =
    q.dsl && typeof q.dsl === 'object' && !Array.isArray(q.dsl)
      ? (q.dsl as Record<string, unknown>)
      : {};
  return {
    id,
    pergunta: q.pergunta,
    hoje: localDate(q.criada_em, opts.timeZone),
    sugerido,
    arquivo: opts.dir ? casesFile(opts.dir) : null,
  };
}

export async function addEvalCase(
  app: pg.Pool,
  input: { id: number; esperado: Record<string, unknown>; nota?: string | undefined },
  opts: { timeZone: string; dir: string | null },
): Promise<EvalCaseResult> {
  if (!opts.dir) {
    throw new AppError(
      'configuracao',
      'Defina BALCAO_EVALS_DIR com a pasta evals/ do projeto para gravar casos de avaliação.',
    );
  }
  const q = await loadQuestion(app, input.id);
  const hoje = localDate(q.criada_em, opts.timeZone);
  let caso: CasoConsulta;
  try {
    caso = CasoConsulta.parse({
      pergunta: q.pergunta,
      hoje,
      esperado: input.esperado,
      ...(input.nota ? { nota: input.nota } : {}),
    });
  } catch (e) {
    const motivos = e instanceof z.ZodError ? issueList(e) : ['caso inválido'];
    throw new AppError('entrada_invalida', `O caso não é válido: ${motivos.join(' ')}`, {
      esperado: motivos,
    });
  }
  const file = casesFile(opts.dir);
  const atual = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = atual.split('\n');
  const repetido = lines.some((l) => {
    if (!l.trim()) return false;
    try {
      const c = JSON.parse(l) as { pergunta?: unknown; hoje?: unknown };
      return c.pergunta === caso.pergunta && c.hoje === caso.hoje;
    } catch {
      return false;
    }
  });
  if (repetido) {
    throw new AppError(
      'conflito',
      `Já existe um caso para esta pergunta com a data de referência ${hoje}.`,
    );
  }
  const line = JSON.stringify(caso);
  // One append: the file is never half-written, and an unterminated last line is closed first.
  appendFileSync(file, `${atual && !atual.endsWith('\n') ? '\n' : ''}${line}\n`);
  const linha = lines.filter((l, i) => i < lines.length - 1 || l !== '').length + 1;
  return { arquivo: file, linha, caso };
}
