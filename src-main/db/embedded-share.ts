/**
 * Sharing one embedded PostgreSQL between processes (the app and any number of CLI commands).
 *
 * - Every process that uses the server holds a *lease*: a file `processos/<pid>-<n>.json` beside
 *   the cluster, with the process's start time (so a recycled PID is not taken for it).
 * - Starting, attaching and leaving happen under one lock file (`inicio.lock`, proper-lockfile:
 *   a lock whose owner died goes stale in seconds).
 * - A process attaches to a running server through `postmaster.pid` (PID, port, status).
 * - The last live lease out stops the server (fast shutdown). A process killed with -9 leaves a
 *   dead lease, which the next process prunes; a server it left behind is then reused, and
 *   stopped when that process — now the last one out — leaves.
 * - A CLI command that is the last one out may leave a *keeper* instead (#41.8): a small detached
 *   process holding a lease of its own (`<pid>-manter.json`) that keeps the server for the next
 *   command and stops it once nobody used it for BALCAO_EMBEDDED_MANTER_S seconds (`ultimo-uso`
 *   is touched by every process as it attaches and leaves).
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export interface Postmaster {
  pid: number;
  port: number;
  /** `starting`, `ready`, `stopping`, `standby` (PostgreSQL ≥ 10). */
  status: string;
}

/** Is a process with this PID alive (ours or another user's)? */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The kernel's start time of a process (Linux), to tell a recycled PID apart. */
export function processStart(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isPostgresProcess(pid: number): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
  } catch {
    return false;
  }
}

/** Reads `postmaster.pid`; undefined when missing or unreadable. */
export function readPostmaster(dataDir: string): Postmaster | undefined {
  const file = join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isSafeInteger(pid) || !Number.isSafeInteger(port)) return undefined;
    return { pid, port, status: (lines[7] ?? '').trim() };
  } catch {
    return undefined;
  }
}

/** The server described by `postmaster.pid`, when its process is really a live postmaster. */
export function runningPostmaster(dataDir: string): Postmaster | undefined {
  const pm = readPostmaster(dataDir);
  if (!pm || !pidAlive(pm.pid) || !isPostgresProcess(pm.pid)) return undefined;
  return pm;
}

/**
 * A `postmaster.pid` whose PID now belongs to some other process makes PostgreSQL refuse to
 * start ("lock file already exists"); one whose process is gone is harmless but removed too.
 */
export function removeStalePostmasterPid(dataDir: string): boolean {
  const pm = readPostmaster(dataDir);
  if (!pm || runningPostmaster(dataDir)) return false;
  rmSync(join(dataDir, 'postmaster.pid'), { force: true });
  return true;
}

interface LeaseFile {
  pid: number;
  inicio?: string;
}

const leaseDir = (dir: string) => join(dir, 'processos');
let leaseSeq = 0;

/** Writes this process's lease (a keeper's: `<pid>-manter.json`); returns its path. */
export function writeLease(dir: string, kind: 'processo' | 'manter' = 'processo'): string {
  mkdirSync(leaseDir(dir), { recursive: true });
  const file = join(
    leaseDir(dir),
    kind === 'manter' ? `${process.pid}-manter.json` : `${process.pid}-${++leaseSeq}.json`,
  );
  const lease: LeaseFile = { pid: process.pid, inicio: processStart(process.pid) };
  writeFileSync(file, JSON.stringify(lease));
  return file;
}

function leaseAlive(l: LeaseFile): boolean {
  if (!pidAlive(l.pid)) return false;
  if (l.inicio === undefined) return true;
  const now = processStart(l.pid);
  return now === undefined || now === l.inicio;
}

/** Removes the leases of dead processes; returns how many live ones remain. */
export function pruneLeases(dir: string): number {
  let live = 0;
  let names: string[];
  try {
    names = readdirSync(leaseDir(dir));
  } catch {
    return 0;
  }
  for (const name of names) {
    const file = join(leaseDir(dir), name);
    let lease: LeaseFile | undefined;
    try {
      lease = JSON.parse(readFileSync(file, 'utf8')) as LeaseFile;
    } catch {
      lease = undefined; // half-written by a process killed mid-write
    }
    if (lease && leaseAlive(lease)) live++;
    else rmSync(file, { force: true });
  }
  return live;
}

/** PIDs of the live keepers (see the module comment). */
export function liveKeepers(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(leaseDir(dir));
  } catch {
    return [];
  }
  return names
    .map((n) => /^(\d+)-manter\.json$/.exec(n)?.[1])
    .filter((p): p is string => p !== undefined)
    .map(Number)
    .filter((pid) => pidAlive(pid));
}

const lastUseFile = (dir: string) => join(dir, 'ultimo-uso');

/** Marks "the server was used now" (a process attached or left). */
export function touchLastUse(dir: string): void {
  const f = lastUseFile(dir);
  const now = new Date();
  try {
    utimesSync(f, now, now);
  } catch {
    writeFileSync(f, '');
  }
}

/** When the server was last used (ms since the epoch); 0 when never marked. */
export function lastUse(dir: string): number {
  return statSync(lastUseFile(dir), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/** Asks the postmaster for a fast shutdown (sessions are ended, nothing half-written). */
export function signalStop(pm: Postmaster): void {
  try {
    process.kill(pm.pid, 'SIGINT');
  } catch {
    // already gone
  }
}

/** Waits until the postmaster has exited (bounded); escalates to an immediate shutdown. */
export async function waitForExit(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return true;
  }
  for (let i = 0; i < 100 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !pidAlive(pid);
}
