/**
 * Free-SQL guard, layer 3: the executor. Runs one already-checked SELECT as the analytics LOGIN
 * role (never SET ROLE) in a read-only, tenant-scoped transaction (withTenantReadOnly), through
 * the extended query protocol only (pg-cursor: Parse/Bind/Execute — one statement, no stacking),
 * streaming rows from a portal and stopping at `maxRows` rows and `maxBytes` bytes. The raw
 * socket is metered too: a result that pushes more than `maxWireBytes` down the wire (one giant
 * row, say) kills the connection instead of being buffered. Always rolled back; the connection
 * is reset and checked, or destroyed.
 */
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { AppError } from '@shared/errors';
import { mapDbError } from '../db/errors';
import type { LeituraFrescor } from '../db/analytics';
import { ANALYTICS_ROLE } from '../db/roles';
import { withTenantReadOnly } from '../db/tenant';
import { MSG_ONLY_VIEW } from './guard';

export const DEFAULT_MAX_ROWS = 500;
export const DEFAULT_MAX_BYTES = 1_000_000;
export const DEFAULT_MAX_WIRE_BYTES = 4_000_000;
const BATCH = 100;
/** Client-side deadline on top of statement_timeout (a stalled server or network). */
const CLIENT_GRACE_MS = 2_000;

export type Cell = string | number | boolean | null;
/** One row: values in the order of `colunas` (never keyed by name: names may repeat). */
export type Linha = Cell[];

export interface ExecLimits {
  timeoutMs: number;
  maxRows?: number;
  maxBytes?: number;
  maxWireBytes?: number;
}

export interface ExecInput extends ExecLimits {
  merchantId: number;
  sql: string;
  timeZone?: string;
  /** Receives the endpoint's freshness (a hot standby's lag), read with the tenant set-up. */
  onFrescor?: (l: LeituraFrescor) => void;
  /** The app role's pool on the same endpoint: freshness is read with it, never as analytics. */
  frescorPool?: pg.Pool;
}

export interface ExecResult {
  /** Column names exactly as the query named them (repeats and `__proto__` included). */
  colunas: string[];
  linhas: Linha[];
  /** More rows/bytes existed than the caps allow; `linhas` holds the first ones. */
  truncado: boolean;
  duracaoMs: number;
}

// --- value conversion: our own parsers, which never throw (a throwing parser inside the
// driver's message handler would take the process down).
const INT_OIDS = new Set([20, 21, 23, 26]);
const FLOAT_OIDS = new Set([700, 701]);
const NUMERIC_OID = 1700;

/** Integers: a JS number when it is a safe integer, else the exact digits as a string. */
function toIntOrString(v: string): number | string {
  const n = Number(v);
  return Number.isSafeInteger(n) && /^-?\d+$/.test(v) ? n : v;
}

/** Floats: PostgreSQL prints the shortest round-trip form, so Number is exact (not ±Infinity/NaN). */
function toFloatOrString(v: string): number | string {
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

/** `-0012.3400` → `-12.34`; anything that is not a plain decimal → undefined. */
function canonicalDecimal(v: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v);
  if (!m) return undefined;
  const int = (m[2] as string).replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return body === '0' ? '0' : `${m[1]}${body}`;
}

/**
 * numeric: a JS number only when it denotes EXACTLY the same decimal value (12.50 → 12.5);
 * 12345678901234567.89 or 2^53 + 1 stay strings with every digit.
 */
export function toNumericOrString(v: string): number | string {
  const canon = canonicalDecimal(v);
  if (canon === undefined) return v; // NaN, Infinity
  const n = Number(canon);
  if (!Number.isFinite(n)) return v;
  const back = canonicalDecimal(String(n).includes('e') ? '' : String(n));
  return back === canon ? n : v;
}

function isoTimestamp(v: string, withZone: boolean): string {
  // 2026-03-01 12:34:56.789-03 → 2026-03-01T12:34:56.789-03:00
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/.exec(v);
  if (withZone && m) return `${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`;
  const n = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(v);
  if (!withZone && n) return `${n[1]}T${n[2]}`;
  return v;
}

function parserFor(oid: number): (v: string) => Cell {
  if (INT_OIDS.has(oid)) return toIntOrString;
  if (FLOAT_OIDS.has(oid)) return toFloatOrString;
  if (oid === NUMERIC_OID) return toNumericOrString;
  if (oid === 16) return (v) => v === 't';
  if (oid === 1184) return (v) => isoTimestamp(v, true);
  if (oid === 1114) return (v) => isoTimestamp(v, false);
  return (v) => v;
}

const types = {
  getTypeParser: (oid: number) => parserFor(oid),
} as unknown as pg.CustomTypesConfig;

function columnNames(fields: { name: string }[]): string[] {
  return fields.map((f) => f.name);
}

/**
 * Layer 3 runs the submitted text only as the body of `SELECT * FROM (…)`: whatever it is, the
 * statement the server gets is a SELECT, so EXPLAIN (whose row estimates and "Rows Removed by
 * Filter" count other merchants' rows), SET, SHOW, COPY, utility commands and anything else a
 * raw login could run are syntax errors here. The newlines keep a trailing `--` comment inside.
 * A trailing `;` (allowed by layer 1) is cut; the guard's `statementText` cuts it exactly.
 */
export function wrapQuery(sql: string): string {
  return `SELECT * FROM (\n${sql.replace(/[\s;]+$/, '')}\n) AS consulta_livre`;
}

/** The one PostgreSQL error mapper, with the free-SQL wording (a syntax error is a refusal). */
function mapFreeSqlError(e: unknown, timeoutMs: number): AppError {
  return mapDbError(e, { kind: 'consulta_livre', timeoutMs, onlyViewMessage: MSG_ONLY_VIEW });
}

class WireLimitError extends Error {}

/**
 * pg-cursor does not speak the COPY sub-protocol; a COPY reaching the wire (only possible if
 * layer 1 were bypassed) would throw inside the driver. This cursor turns it into a killed
 * connection and a refusal instead.
 */
class GuardedCursor extends Cursor {
  onViolation: () => void = () => undefined;
  handleCopyInResponse(): void {
    this.onViolation();
  }
  handleCopyData(): void {
    this.onViolation();
  }
}

type WireStream = NodeJS.EventEmitter & { destroy(e?: Error): void };

/**
 * Layer 3 alone. Production code calls `runFreeSql` (guard + this); tests call this directly to
 * prove that layers 2 and 3 hold without the parser.
 */
export async function executeReadOnly(pool: pg.Pool, input: ExecInput): Promise<ExecResult> {
  const maxRows = Math.max(1, Math.min(input.maxRows ?? DEFAULT_MAX_ROWS, DEFAULT_MAX_ROWS));
  const maxBytes = Math.max(1, input.maxBytes ?? DEFAULT_MAX_BYTES);
  const maxWire = Math.max(64_000, input.maxWireBytes ?? DEFAULT_MAX_WIRE_BYTES);
  const t0 = performance.now();
  try {
    return await withTenantReadOnly(
      pool,
      {
        merchantId: input.merchantId,
        timeoutMs: input.timeoutMs,
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
        expectRole: ANALYTICS_ROLE,
        ...(input.onFrescor ? { onFrescor: input.onFrescor } : {}),
        ...(input.frescorPool ? { frescorPool: input.frescorPool } : {}),
      },
      async (client, control) => {
        const stream = (client as unknown as { connection: { stream: WireStream } }).connection
          .stream;
        let wire = 0;
        let wireExceeded = false;
        const meter = (chunk: Buffer) => {
          wire += chunk.length;
          if (wire > maxWire && !wireExceeded) {
            wireExceeded = true;
            control.markBroken('limite de bytes na conexão');
            stream.destroy(new WireLimitError('wire'));
          }
        };
        stream.on('data', meter);
        // A connection we kill must not surface as an unhandled 'error' event; a connection
        // lost under the query (backend terminated, server restart) fails it at once instead of
        // leaving the cursor waiting for the deadline.
        let onLost: (e: unknown) => void = () => undefined;
        const lost = new Promise<never>((_, reject) => (onLost = reject));
        lost.catch(() => undefined);
        const swallow = (err: unknown) => {
          control.markBroken('erro na conexão');
          onLost(err);
        };
        const ended = () => onLost(new Error('Connection terminated unexpectedly'));
        client.on('error', swallow);
        client.once('end', ended);
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            control.markBroken('prazo do cliente');
            stream.destroy();
            reject(Object.assign(new Error('deadline'), { code: '57014' }));
          }, input.timeoutMs + CLIENT_GRACE_MS);
        });
        deadline.catch(() => undefined);
        let violation = false;
        const guarded = new GuardedCursor(wrapQuery(input.sql), undefined, {
          rowMode: 'array',
          types,
        });
        const cursor = client.query(guarded);
        const refused = new Promise<never>((_, reject) => {
          guarded.onViolation = () => {
            if (violation) return;
            violation = true;
            control.markBroken('protocolo COPY');
            stream.destroy();
            reject(new AppError('consulta_recusada', MSG_ONLY_VIEW));
          };
        });
        refused.catch(() => undefined);
        try {
          const linhas: Linha[] = [];
          let colunas: string[] = [];
          let bytes = 2;
          let truncado = false;
          for (;;) {
            const want = Math.min(BATCH, maxRows + 1 - linhas.length);
            const { rows, fields } = await Promise.race([
              new Promise<{ rows: Cell[][]; fields: { name: string }[] }>((resolve, reject) => {
                cursor.read(want, (err, rows, result) => {
                  if (err) reject(err);
                  else resolve({ rows: rows as Cell[][], fields: result?.fields ?? [] });
                });
              }),
              deadline,
              refused,
              lost,
            ]);
            if (colunas.length === 0 && fields.length) colunas = columnNames(fields);
            for (const r of rows) {
              if (linhas.length >= maxRows) {
                truncado = true;
                break;
              }
              const linha: Linha = colunas.map((_, i) => r[i] ?? null);
              const size = Buffer.byteLength(JSON.stringify(linha)) + 1;
              if (bytes + size > maxBytes) {
                truncado = true;
                break;
              }
              bytes += size;
              linhas.push(linha);
            }
            if (truncado || rows.length < want) break;
          }
          if (wireExceeded) throw new WireLimitError('wire');
          return { colunas, linhas, truncado, duracaoMs: 0 };
        } catch (e) {
          if (wireExceeded || e instanceof WireLimitError) {
            throw new AppError(
              'consulta_recusada',
              'consulta recusada: o resultado passou do limite de tamanho',
            );
          }
          throw mapFreeSqlError(e, input.timeoutMs);
        } finally {
          if (!wireExceeded && !violation) {
            await Promise.race([cursor.close(), deadline, lost]).catch(() => {
              control.markBroken('cursor não fechou');
            });
          }
          clearTimeout(timer);
          stream.removeListener('data', meter);
          client.removeListener('error', swallow);
          client.removeListener('end', ended);
        }
      },
    ).then((r) => ({ ...r, duracaoMs: Math.round(performance.now() - t0) }));
  } catch (e) {
    throw mapFreeSqlError(e, input.timeoutMs);
  }
}
