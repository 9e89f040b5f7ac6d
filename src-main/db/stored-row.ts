/**
 * A one-row settings table saved in Configurações (WhatsApp, migration 1090; PSP, migration
 * 1120): each field a column standing for an environment variable. What both tables share:
 * saving a change (only the columns that changed, so a person's role needs no right to read a
 * secret to replace it) and reading the row as environment variables for serve and worker
 * (service login only: it reads the secrets), every secret registered for redaction on the way.
 */
import { AppError } from '@shared/errors';
import type pg from 'pg';
import { query } from './tx';
import { registerSecret } from '../util/redact';

export type StoredColumns = Record<string, { coluna: string; env: string }>;

export interface StoredRow<C extends StoredColumns> {
  /** Saves the fields present (null removes a stored value); refuses when the row is missing. */
  save(pool: pg.Pool, patch: Partial<Record<keyof C, string | null>>): Promise<void>;
  /** The stored values as environment variables; fields not stored are absent. */
  env(pool: pg.Pool): Promise<Record<string, string>>;
}

export function storedRow<C extends StoredColumns>(o: {
  /** The table (our own constant, never input). */
  tabela: string;
  colunas: C;
  segredos: ReadonlySet<keyof C>;
  /** How the messages name these settings: "do PSP", "do WhatsApp". */
  nome: string;
  /** The migration that creates the row, for the message when it is missing. */
  migracao: string;
}): StoredRow<C> {
  const campos = Object.keys(o.colunas) as (keyof C & string)[];
  return {
    async save(pool, patch) {
      const mudou = campos.filter((k) => patch[k] !== undefined);
      if (!mudou.length) return;
      for (const k of mudou) if (o.segredos.has(k)) registerSecret(patch[k] ?? undefined);
      const set = mudou.map((k, i) => `${o.colunas[k]!.coluna} = $${i + 1}`).join(', ');
      const rows = await query<{ id: number }>(
        pool,
        `UPDATE ${o.tabela} SET ${set} WHERE id = 1 RETURNING id`,
        mudou.map((k) => patch[k] ?? null),
      );
      if (!rows.length) {
        throw new AppError(
          'interno',
          `As configurações ${o.nome} não existem no banco (migração ${o.migracao}).`,
        );
      }
    },
    async env(pool) {
      let rows: Record<string, string | null>[];
      try {
        rows = await query<Record<string, string | null>>(
          pool,
          `SELECT ${campos.map((k) => o.colunas[k]!.coluna).join(', ')} FROM ${o.tabela} WHERE id = 1`,
        );
      } catch (e) {
        if (e instanceof AppError && e.code === 'acesso_negado') {
          throw new AppError(
            'configuracao',
            `O login deste serviço não pode ler os segredos ${o.nome} salvos em Configurações: rode balcao serve e balcao worker com o login do Balcão (balcao_app) em APP_DATABASE_URL.`,
          );
        }
        throw e;
      }
      const r = rows[0] ?? {};
      const out: Record<string, string> = {};
      for (const k of campos) {
        const { coluna, env } = o.colunas[k]!;
        const v = r[coluna];
        if (typeof v === 'string' && v) {
          if (o.segredos.has(k)) registerSecret(v);
          out[env] = v;
        }
      }
      return out;
    },
  };
}
