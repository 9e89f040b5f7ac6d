/**
 * `balcao db status` (#16): for each endpoint (admin, app, analytics) — reachable, server
 * version, login role, primary or standby, lag, migrations applied — each probed on its own
 * short-lived connection with connect and query timeouts, so a down or hung server is reported
 * in bounded time instead of blocking the others.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { formatAtraso, formatDadosAte } from '@shared/freshness';
import { resourcesDir } from '../util/paths';
import { withClient } from './client';
import { mapDbError } from './errors';
import { redactUrl, urlWithCredentialsOf } from './urls';

export type EndpointName = 'admin' | 'app' | 'analytics';

export interface EndpointStatus {
  /** The URL without its password. */
  url: string;
  alcancavel: boolean;
  /** pt-BR reason when not reachable (never the raw server text). */
  erro: string | null;
  versao: string | null;
  papel: string | null;
  tipo: 'primario' | 'replica' | null;
  /** Seconds behind the primary (0 on a primary or a caught-up standby); null unknown. */
  atraso_s: number | null;
  /** ISO instant up to which this server's data is complete. */
  dados_ate: string | null;
  migracoes: number | null;
  ultima_migracao: string | null;
  /** Migrations this version ships that this server does not have yet. */
  migracoes_pendentes: number | null;
}

export type DbStatus = Record<EndpointName, EndpointStatus>;

const FULL_SQL = `SELECT current_setting('server_version') AS versao, current_user::text AS papel,
       f.em_recuperacao, f.atraso_s, f.dados_ate, m.quantidade, m.ultima
  FROM balcao_frescor() f, balcao_migracoes() m`;
/** Before migration 0600 (or on a database that is not Balcão's yet). */
const BASIC_SQL = `SELECT current_setting('server_version') AS versao, current_user::text AS papel`;

function knownMigrations(): number {
  return readdirSync(join(resourcesDir(), 'migrations')).filter((f) => f.endsWith('.sql')).length;
}

interface Row {
  versao: string;
  papel: string;
  em_recuperacao?: boolean;
  atraso_s?: number | null;
  dados_ate?: Date | null;
  quantidade?: number;
  ultima?: string | null;
}

/** A status probe's own connection: connect and query bounded by `timeoutMs`. */
const probeConfig = (url: string, timeoutMs: number): pg.ClientConfig => ({
  connectionString: url,
  connectionTimeoutMillis: timeoutMs,
  query_timeout: timeoutMs,
  application_name: 'balcao-status',
});

/** Freshness and migrations of an endpoint, read as the role of `url` (the app role). */
async function endpointFacts(url: string, timeoutMs: number): Promise<Partial<Row>> {
  try {
    return await withClient(probeConfig(url, timeoutMs), async (client) => {
      const r = await client.query<Row>(FULL_SQL);
      const { versao: _v, papel: _p, ...facts } = r.rows[0] ?? ({} as Row);
      return facts;
    });
  } catch {
    return {};
  }
}

/**
 * Probes one endpoint. `factsUrl` (the app role on the same endpoint) reads freshness and
 * migrations for a login that may not (the analytics role, #12).
 */
export async function probeEndpoint(
  url: string,
  timeoutMs = 3_000,
  factsUrl?: string,
): Promise<EndpointStatus> {
  const base: EndpointStatus = {
    url: redactUrl(url),
    alcancavel: false,
    erro: null,
    versao: null,
    papel: null,
    tipo: null,
    atraso_s: null,
    dados_ate: null,
    migracoes: null,
    ultima_migracao: null,
    migracoes_pendentes: null,
  };
  try {
    const row = await withClient(probeConfig(url, timeoutMs), async (client) => {
      try {
        if (factsUrl) {
          const basic = (await client.query<Row>(BASIC_SQL)).rows[0];
          return basic ? { ...basic, ...(await endpointFacts(factsUrl, timeoutMs)) } : undefined;
        }
        return (await client.query<Row>(FULL_SQL)).rows[0];
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code !== '42883' && code !== '42501') throw e;
        return (await client.query<Row>(BASIC_SQL)).rows[0];
      }
    });
    if (!row) throw new Error('sem linha');
    const known = knownMigrations();
    return {
      ...base,
      alcancavel: true,
      versao: row.versao,
      papel: row.papel,
      tipo: row.em_recuperacao === undefined ? null : row.em_recuperacao ? 'replica' : 'primario',
      atraso_s:
        row.atraso_s === undefined || row.atraso_s === null
          ? null
          : Math.round(Number(row.atraso_s) * 10) / 10,
      dados_ate: row.dados_ate ? new Date(row.dados_ate).toISOString() : null,
      migracoes: row.quantidade ?? null,
      ultima_migracao: row.ultima ?? null,
      migracoes_pendentes:
        row.quantidade === undefined ? null : Math.max(0, known - row.quantidade),
    };
  } catch (e) {
    const m = mapDbError(e);
    return {
      ...base,
      erro:
        m.code === 'interno'
          ? 'O servidor respondeu com um erro inesperado.'
          : m.code === 'banco_indisponivel'
            ? `Sem resposta em ${(timeoutMs / 1000).toLocaleString('pt-BR')} s ou conexão recusada.`
            : m.message,
    };
  }
}

export async function databaseStatus(
  urls: Record<EndpointName, string>,
  timeoutMs = 3_000,
): Promise<DbStatus> {
  const [admin, app, analytics] = await Promise.all([
    probeEndpoint(urls.admin, timeoutMs),
    probeEndpoint(urls.app, timeoutMs),
    // The analytics role may not read replication state: the app role on its endpoint does.
    probeEndpoint(urls.analytics, timeoutMs, urlWithCredentialsOf(urls.analytics, urls.app)),
  ]);
  return { admin, app, analytics };
}

const LABEL: Record<EndpointName, string> = {
  admin: 'admin (DATABASE_URL: migrações)',
  app: 'app (APP_DATABASE_URL: fila, registros)',
  analytics: 'análise (ANALYTICS_DATABASE_URL: perguntas de vendas)',
};

/** The human report, pt-BR. */
export function formatDbStatus(st: DbStatus, opts: { agora: Date; zone: string }): string {
  const out: string[] = [];
  for (const name of ['admin', 'app', 'analytics'] as const) {
    const e = st[name];
    out.push(`${LABEL[name]}`, `  ${e.url}`);
    if (!e.alcancavel) {
      out.push(`  FORA DO AR: ${e.erro ?? 'sem resposta'}`);
      continue;
    }
    const tipo =
      e.tipo === 'replica'
        ? `réplica (hot standby), ${
            e.atraso_s === null ? 'atraso desconhecido' : `atraso ${formatAtraso(e.atraso_s)}`
          }${
            e.dados_ate
              ? `, dados até ${formatDadosAte(new Date(e.dados_ate), opts.agora, opts.zone)}`
              : ''
          }`
        : e.tipo === 'primario'
          ? 'primário'
          : 'tipo desconhecido';
    const mig =
      e.migracoes === null
        ? 'migrações: não aplicadas (rode balcao db migrate)'
        : `migrações: ${e.migracoes} aplicadas${e.ultima_migracao ? ` (última ${e.ultima_migracao})` : ''}` +
          (e.migracoes_pendentes ? `, ${e.migracoes_pendentes} pendente(s)` : ', nenhuma pendente');
    out.push(
      `  no ar · PostgreSQL ${e.versao ?? '?'} · usuário ${e.papel ?? '?'} · ${tipo}`,
      `  ${mig}`,
    );
  }
  return out.join('\n');
}
