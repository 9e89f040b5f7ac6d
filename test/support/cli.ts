/** Running the `balcao` CLI in process (main(argv, io, env)) in tests, and the env it reads. */
import { main } from '../../src-main/cli/main';
import type { CliIO } from '../../src-main/cli/io';
import type { TestDatabase } from './testdb';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the CLI with buffers for stdout/stderr: every write is one line (ends with a line
 * break), and the texts come back as written. `io` adds to the buffers (e.g. `readSecret`).
 */
export async function runCliUntrimmed(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: Partial<CliIO> = {},
): Promise<CliRun> {
  let out = '';
  let err = '';
  const buffers: CliIO = {
    out: (t) => void (out += `${t}\n`),
    err: (t) => void (err += `${t}\n`),
    isTTY: false,
    ...io,
  };
  const code = await main(args, buffers, env);
  return { code, out, err };
}

/** runCliUntrimmed, with both texts trimmed. */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: Partial<CliIO> = {},
): Promise<CliRun> {
  const { code, out, err } = await runCliUntrimmed(args, env, io);
  return { code, out: out.trim(), err: err.trim() };
}

/** Like runCli, but the writes come back exactly as written, joined by line breaks (untrimmed). */
export async function runCliLines(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false };
  const code = await main(args, io, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The env the CLI reads to reach a test database: its three URLs, silent logs, then `extra`. */
export function cliEnv(
  db: Pick<TestDatabase, 'adminUrl' | 'appUrl' | 'analyticsUrl'>,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: db.adminUrl,
    APP_DATABASE_URL: db.appUrl,
    ANALYTICS_DATABASE_URL: db.analyticsUrl,
    BALCAO_LOG_LEVEL: 'silent',
    ...extra,
  };
}

/**
 * Like runCliLines, with a terminal that answers every [s/N] question with `answer` (null: no
 * terminal to ask; undefined: the IO has no way to ask at all). `asked` lists the questions.
 */
export async function runCliAnswering(
  args: string[],
  env: NodeJS.ProcessEnv,
  answer: boolean | null | undefined,
): Promise<CliRun & { asked: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  const io: CliIO = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    ...(answer === undefined
      ? {}
      : {
          confirm: (q: string) => {
            asked.push(q);
            return Promise.resolve(answer);
          },
        }),
  };
  const code = await main(args, io, env);
  return { code, out: out.join('\n'), err: err.join('\n'), asked };
}
