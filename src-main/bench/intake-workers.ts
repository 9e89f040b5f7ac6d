/**
 * Real `balcao worker` processes for `balcao bench-intake`: spawned from this CLI's own entry
 * point, so `kill -9` is a real kill (no graceful stop, no finally, sessions cut by the kernel).
 * Each worker logs one debug line per job ('intake: tempos'), read here from its stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

/** One job's time split, as the worker logged it. */
export interface JobTimes {
  job: string;
  mensagem: number;
  ok: boolean;
  total_ms: number;
  espera_ms: number;
  api_ms: number;
  proprio_ms: number;
  chamadas: number;
  pid: number;
  /** The worker process's CPU time so far. */
  cpu_ms: number;
}

export interface BenchWorker {
  pid: number;
  /** Resolves when the worker says it is active (rejects if it exits first or times out). */
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** Last stderr lines that are not timing logs (to explain a worker that failed). */
  tail(): string[];
  /** kill -9. */
  kill9(): void;
  /** SIGTERM, then SIGKILL after `ms`. */
  stop(ms: number): Promise<void>;
}

/**
 * The CLI entry that starts `balcao worker`, in the same checkout: `src-main/cli/bin.mjs` found by
 * walking up from this module (src-main/bench from the sources, out/cli/assets from the bundle).
 */
function cliEntry(): string {
  let dir = new URL('.', import.meta.url);
  for (let i = 0; i < 6; i++) {
    const candidate = fileURLToPath(new URL('src-main/cli/bin.mjs', dir));
    if (existsSync(candidate)) return candidate;
    dir = new URL('..', dir);
  }
  return fileURLToPath(new URL('../cli/bin.mjs', import.meta.url));
}

export const CLI_ENTRY = cliEntry();

export function spawnWorker(
  concurrency: number,
  env: NodeJS.ProcessEnv,
  onTimes: (t: JobTimes) => void,
  readyTimeoutMs: number,
): BenchWorker {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI_ENTRY, 'worker', '--concurrency', String(concurrency)],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const tail: string[] = [];
  let markReady: () => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    fail = reject;
  });
  const timer = setTimeout(
    () => fail(new Error(`worker ${child.pid} não ficou pronto em ${readyTimeoutMs} ms`)),
    readyTimeoutMs,
  );
  ready.catch(() => undefined).finally(() => clearTimeout(timer));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      fail(new Error(`worker ${child.pid} saiu (código ${code}): ${tail.slice(-5).join(' | ')}`));
      resolve(code);
    });
    child.once('error', (e) => {
      fail(e);
      resolve(null);
    });
  });
  if (child.stderr) {
    const lines = createInterface({ input: child.stderr, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (line.startsWith('{')) {
        try {
          const j = JSON.parse(line) as { msg?: string; tempos?: JobTimes };
          if (j.msg === 'intake: tempos' && j.tempos) {
            onTimes(j.tempos);
            return;
          }
        } catch {
          // not a log line
        }
      }
      if (line.startsWith('Worker ativo')) markReady();
      tail.push(line.slice(0, 500));
      if (tail.length > 50) tail.shift();
    });
  }
  return {
    pid: child.pid ?? -1,
    ready,
    exited,
    tail: () => [...tail],
    kill9: () => {
      child.kill('SIGKILL');
    },
    async stop(ms) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), ms);
      await exited;
      clearTimeout(t);
    },
  };
}
