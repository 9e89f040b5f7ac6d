/**
 * Last-resort handlers for errors nothing else caught (an 'error' event without a listener in a
 * library, a rejected promise nobody awaited). The database layer already turns every
 * connection fault into a failed operation; these handlers are the net under it.
 * - The Electron main process logs the full error and keeps running (one failed call must not
 *   close every agent's window).
 * - The CLI logs the full error, prints what a batch already finished, says in pt-BR that the
 *   command was interrupted, and exits 1 — except while a command serves until stopped
 *   (`balcao serve`, `balcao worker`: `keepServing`): then it logs and the process goes on. One
 *   bad job or request must never take the process down (#40.7); pg-boss 10, for one, completes
 *   and fails jobs without awaiting it, so a connection lost at that instant is a rejection
 *   nobody handles.
 */
import { causeForLog } from './log-cause';
import type { Logger } from './logger';

type Reporter = () => void;
const reporters = new Set<Reporter>();
/** Commands serving until stopped, now (see keepServing). */
let serving = 0;

/**
 * A command that serves until stopped (serve, worker) calls this once it serves: from then on,
 * until the returned function is called, an error nobody caught is logged and the process keeps
 * serving — the job or request it belonged to has failed on its own (pg-boss retries a job whose
 * completion was lost; an HTTP client gets no answer and sends again).
 */
export function keepServing(): () => void {
  serving++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    serving--;
  };
}

/**
 * A long-running command registers how to print what it already finished; the CLI's last-resort
 * handler calls it before exiting. Returns the unregister function.
 */
export function onInterrupted(report: Reporter): () => void {
  reporters.add(report);
  return () => reporters.delete(report);
}

function reportFinished(logger: Logger): void {
  for (const r of [...reporters]) {
    try {
      r();
    } catch (err) {
      logger.error({ err }, 'falha ao imprimir o que o lote já concluiu');
    }
  }
  reporters.clear();
}

export interface LastResort {
  /** Removes the handlers (tests, and a CLI run that ended normally). */
  uninstall(): void;
}

function install(handler: (err: unknown, origin: string) => void): LastResort {
  const onException = (err: unknown, origin: string) => handler(err, origin);
  const onRejection = (reason: unknown) => handler(reason, 'unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return {
    uninstall() {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}

/** Electron main process: log everything, keep the app alive. */
export function installAppLastResort(logger: Logger): LastResort {
  return install((err, origin) => {
    logger.error(
      { err, origin, causa: causeForLog(err) },
      'erro não tratado no processo principal; o app continua',
    );
  });
}

/** CLI: log, print what a batch finished, a pt-BR message on stderr, exit 1. */
export function installCliLastResort(opts: {
  logger: () => Logger;
  err: (text: string) => void;
  exit?: (code: number) => void;
}): LastResort {
  let fired = false;
  return install((err, origin) => {
    const logger = opts.logger();
    if (serving > 0) {
      logger.error(
        { err, origin, causa: causeForLog(err) },
        'erro não tratado: o serviço continua (a tarefa em que ocorreu falhou sozinha)',
      );
      return;
    }
    logger.error(
      { err, origin, causa: causeForLog(err) },
      'erro não tratado: comando interrompido',
    );
    if (fired) return;
    fired = true;
    reportFinished(logger);
    opts.err(
      'balcao: o comando foi interrompido por um erro inesperado (o que já foi concluído está acima). Veja o log para detalhes.',
    );
    const exit =
      opts.exit ?? ((code: number) => process.stdout.write('', () => process.exit(code)));
    exit(1);
  });
}
