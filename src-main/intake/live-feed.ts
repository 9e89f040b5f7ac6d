/**
 * Live queue through a transaction pooler (#39.1): instead of one LISTEN session per desktop
 * (live.ts), each desktop reads the change log (`fila_mudancas`, migration 1060) through the pool
 * it already has, every ~300 ms: `balcao_fila_mudancas(pos > last)`, an index range scan that
 * usually returns nothing. Through PgBouncer in transaction mode a read holds a server
 * connection only for its own statement, so the primary's connections are bounded by the
 * pooler, not by the number of desktops.
 *
 * Positions come from a sequence: a transaction that took position 10 may commit after the one
 * that took 11. A reader that saw 11 keeps 10 as "missing" and asks for it by position on the
 * next reads until it shows up; a position missing for longer than `esperaMaxMs` (a rolled-back
 * transaction, or rows pruned while the desktop slept) is given up with one
 * `reconectado: true`, on which screens refetch everything — nothing is silently lost.
 * The events are live.ts's `QueueChange`s, one per read that found something.
 */
import type pg from 'pg';
import { hot } from '../db/prepared';
import type { Logger } from '../util/logger';
import type { QueueChange, QueueListener } from './live';

const READ = 'SELECT pos, extracao_id, reserva, conversa FROM balcao_fila_mudancas($1, $2, $3)';

/** Most positions kept as missing; beyond that the reader starts again (reconectado). */
const MAX_FALTANDO = 10_000;

/** A desktop's default pause between reads of the change log. */
export const FEED_INTERVAL_MS = 300;

export interface QueueFeedOptions {
  /** The desktop's own pool (through PgBouncer on a team server). */
  pool: pg.Pool;
  onChange: (c: QueueChange) => void;
  logger?: Logger;
  /** Pause between reads (default 300 ms). */
  intervalMs?: number;
  /** How long a position taken by an uncommitted transaction is waited for (default 60 s). */
  esperaMaxMs?: number;
  /** Rows per read (default 1000); a full read is followed by the next one at once. */
  limite?: number;
  maxBackoffMs?: number;
}

interface Row {
  pos: number;
  extracao_id: number | null;
  reserva: boolean;
  conversa: boolean;
}

export function startQueueFeed(opts: QueueFeedOptions): QueueListener {
  const interval = opts.intervalMs ?? FEED_INTERVAL_MS;
  const esperaMax = opts.esperaMaxMs ?? 60_000;
  const limite = opts.limite ?? 1000;
  const maxBackoff = opts.maxBackoffMs ?? 15_000;
  let ultima: number | null = null;
  /** Position → when it was first found missing. */
  const faltando = new Map<number, number>();
  let live = false;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const emit = (c: QueueChange) => {
    try {
      opts.onChange(c);
    } catch (err) {
      opts.logger?.warn({ err }, 'fila ao vivo: ouvinte falhou');
    }
  };

  const read = async (): Promise<boolean> => {
    if (ultima === null) {
      const r = await opts.pool.query<Row>(hot(opts.pool, READ, [null, null, 1]));
      ultima = r.rows[0]?.pos ?? 0;
      return false;
    }
    const r = await opts.pool.query<Row>(
      hot(opts.pool, READ, [ultima, [...faltando.keys()], limite]),
    );
    const ids = new Set<number>();
    const reservas = new Set<number>();
    const conversas = new Set<number>();
    let perdido = false;
    for (const row of r.rows) {
      if (row.pos > ultima) {
        const agora = Date.now();
        if (row.pos - ultima - 1 + faltando.size > MAX_FALTANDO) perdido = true;
        else for (let p = ultima + 1; p < row.pos; p++) faltando.set(p, agora);
        ultima = row.pos;
      } else if (!faltando.delete(row.pos)) {
        continue;
      }
      if (row.extracao_id === null) continue;
      ids.add(row.extracao_id);
      if (row.reserva) reservas.add(row.extracao_id);
      if (row.conversa) conversas.add(row.extracao_id);
    }
    let perdeu = perdido;
    const limiteEspera = Date.now() - esperaMax;
    for (const [p, desde] of faltando) {
      if (desde > limiteEspera) break; // insertion order is position order: the rest is newer
      faltando.delete(p);
      perdeu = true;
    }
    if (ids.size) {
      emit({
        ids: [...ids],
        ...(reservas.size ? { reservas: [...reservas] } : {}),
        ...(conversas.size ? { conversas: [...conversas] } : {}),
      });
    }
    if (perdeu) emit({ ids: [], reconectado: true });
    return r.rows.length >= limite;
  };

  const tick = async () => {
    let next = interval;
    try {
      const more = await read();
      if (closed) return;
      if (failures > 0) emit({ ids: [], reconectado: true });
      failures = 0;
      live = true;
      if (more) next = 0;
    } catch (err) {
      if (closed) return;
      live = false;
      failures++;
      next = Math.min(maxBackoff, interval * 2 ** Math.min(failures, 6));
      if (failures === 1)
        opts.logger?.warn({ err }, 'fila ao vivo: leitura falhou; tentando de novo');
    }
    schedule(next);
  };

  const schedule = (ms: number) => {
    if (closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = tick().finally(() => {
        running = undefined;
      });
    }, ms);
    timer.unref?.();
  };

  schedule(0);
  return {
    connected: () => live,
    async close() {
      closed = true;
      live = false;
      clearTimeout(timer);
      await running;
    },
  };
}
