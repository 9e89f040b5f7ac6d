/**
 * How long a CLI command takes to start (#41.8), as a user runs it, on the embedded default:
 *
 *   npx tsx scripts/cli-startup.ts [--vezes 5]
 *
 * Prints the median and the slowest of N runs for: `--version` (the bundle alone), the same
 * through `npx balcao`, a database command with no server running (it starts the embedded
 * PostgreSQL and stops it: BALCAO_EMBEDDED_MANTER_S=0) and the same command while the keeper
 * holds the server (the default: the next command finds it up). Uses a data folder of its own,
 * removed at the end; needs `npm run build` first for the bundle figures.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'src-main/cli/bin.mjs');
const arg = process.argv.indexOf('--vezes');
const vezes = arg > 0 ? Number(process.argv[arg + 1]) : 5;
if (!Number.isSafeInteger(vezes) || vezes < 1) {
  console.error('--vezes: use um número inteiro positivo.');
  process.exit(2);
}
if (!existsSync(join(root, 'out/cli/main.mjs'))) {
  console.error('Rode `npm run build` antes: sem o bundle a CLI roda pelo tsx (mais lenta).');
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'balcao-startup-'));
chmodSync(dataDir, 0o755); // as root, the postgres system user must enter it
const env: NodeJS.ProcessEnv = { ...process.env, BALCAO_DATA_DIR: dataDir };
for (const k of ['DATABASE_URL', 'APP_DATABASE_URL', 'ANALYTICS_DATABASE_URL']) delete env[k];

function time(cmd: string, args: string[], extra: NodeJS.ProcessEnv = {}): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, env: { ...env, ...extra }, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} saiu com ${r.status}:\n${r.stderr}`);
    process.exit(1);
  }
  return ms;
}

function keeperPids(): number[] {
  const dir = join(dataDir, 'postgres', 'processos');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((n) => /^(\d+)-manter\.json$/.exec(n)?.[1])
    .filter((p): p is string => p !== undefined)
    .map(Number);
}

function serverUp(): boolean {
  const f = join(dataDir, 'postgres', 'pgdata', 'postmaster.pid');
  if (!existsSync(f)) return false;
  try {
    process.kill(Number(readFileSync(f, 'utf8').split('\n')[0]), 0);
    return true;
  } catch {
    return false;
  }
}

async function stopKeeper(): Promise<void> {
  for (const pid of keeperPids()) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
  for (let i = 0; i < 600 && (serverUp() || keeperPids().length); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
}

function row(name: string, runs: number[]): string {
  const s = [...runs].sort((a, b) => a - b);
  const med = s[Math.floor((s.length - 1) / 2)]!;
  const max = s[s.length - 1]!;
  const f = (ms: number) =>
    `${(ms / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 2 })} s`;
  return `| ${name} | ${f(med)} | ${f(max)} |`;
}

try {
  // First use: initdb + migrations, not measured.
  time(process.execPath, [bin, 'db', 'migrate'], { BALCAO_EMBEDDED_MANTER_S: '0' });
  const rows: string[] = [];
  const n = (f: () => number) => Array.from({ length: vezes }, f);
  rows.push(
    row(
      '`node src-main/cli/bin.mjs --version`',
      n(() => time(process.execPath, [bin, '--version'])),
    ),
  );
  rows.push(
    row(
      '`npx balcao --version`',
      n(() => time('npx', ['balcao', '--version'])),
    ),
  );
  const cold: number[] = [];
  for (let i = 0; i < vezes; i++) {
    await stopKeeper();
    cold.push(time(process.execPath, [bin, 'db', 'status'], { BALCAO_EMBEDDED_MANTER_S: '0' }));
  }
  rows.push(row('`balcao db status`, servidor parado (inicia e para o PostgreSQL)', cold));
  time(process.execPath, [bin, 'db', 'status']); // leaves the keeper
  rows.push(
    row(
      '`balcao db status`, servidor mantido do comando anterior',
      n(() => time(process.execPath, [bin, 'db', 'status'])),
    ),
  );
  console.log(
    `Início da CLI, mediana e pior de ${vezes} execuções (Node ${process.versions.node}):\n`,
  );
  console.log('| comando | mediana | pior |\n| --- | --- | --- |');
  console.log(rows.join('\n'));
} finally {
  await stopKeeper();
  rmSync(dataDir, { recursive: true, force: true });
}
