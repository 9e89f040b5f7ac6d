import { redactText } from '../util/redact';
import { Command, CommanderError, Help, type Argument, type Option } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { registerAsk } from './commands/ask';
import { registerBench } from './commands/bench';
import { registerBenchCobrancas } from './commands/bench-cobrancas';
import { registerBenchFila } from './commands/bench-fila';
import { registerBenchIntake } from './commands/bench-intake';
import { registerBenchWhatsApp } from './commands/bench-whatsapp';
import { registerCobrancas } from './commands/cobrancas';
import { registerDb } from './commands/db';
import { registerEval } from './commands/eval';
import { registerExtract } from './commands/extract';
import { registerPerguntas } from './commands/perguntas';
import { registerIntake } from './commands/intake';
import { registerLgpd } from './commands/lgpd';
import { registerLojistasContatos } from './commands/lojistas-contatos';
import { registerSql } from './commands/sql';
import { registerUsuarios } from './commands/usuarios';
import { cliLogLevel, createCliContext, type CliContext } from './context';
import { CliError, processIO, systemErrorMessage, toCliError, type CliIO } from './io';
import { isAppError } from '@shared/errors';
import { causeForLog } from '../util/log-cause';
import { installCliLastResort } from '../util/last-resort';
import { createLogger } from '../util/logger';

/** pt-BR messages for commander's own usage errors. */
function usageMessage(e: CommanderError): string {
  const m = e.message.replace(/^error:\s*/i, '');
  const arg = /'([^']+)'/.exec(m)?.[1] ?? '';
  switch (e.code) {
    case 'commander.unknownOption': {
      const like = /Did you mean (\S+?)\?/.exec(m)?.[1];
      return `opção desconhecida: ${arg}${like ? ` (quis dizer ${like}?)` : ''}`;
    }
    case 'commander.unknownCommand':
      return `comando desconhecido: ${arg}`;
    case 'commander.missingArgument':
      return `falta o argumento obrigatório ${arg}`;
    case 'commander.optionMissingArgument':
      return `a opção ${arg} precisa de um valor`;
    case 'commander.missingMandatoryOptionValue':
      return `a opção obrigatória ${arg} não foi informada`;
    case 'commander.excessArguments':
      return 'argumentos demais';
    case 'commander.invalidArgument': {
      const detail = m
        .split('. ')
        .slice(1)
        .join('. ')
        .replace(/^Allowed choices are (.*?)\.?$/, 'use um de: $1.');
      return `valor inválido para ${arg}: ${detail}`;
    }
    default:
      return m;
  }
}

/** The subcommand `argv` names (deepest match) and how many words named it. */
function commandOf(program: Command, argv: readonly string[]): { cmd: Command; depth: number } {
  let cmd = program;
  let depth = 0;
  for (const word of argv) {
    if (word.startsWith('-')) continue;
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    cmd = next;
    depth++;
  }
  return { cmd, depth };
}

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
}

/**
 * commander checks the mandatory options before the unknown ones, so a mistyped `--merchnt`
 * reads as "--merchant não foi informada". The unknown option is the real mistake: name it.
 */
function unknownOptionIn(program: Command, argv: readonly string[]): string | null {
  const { cmd } = commandOf(program, argv);
  const known = new Set<string>(['--help', '-h', '--version', '-V']);
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const o of c.options) {
      if (o.long) known.add(o.long);
      if (o.short) known.add(o.short);
      if (o.negate && o.long) known.add(o.long);
    }
  }
  const given = argv.find((a) => a.startsWith('-') && a !== '--' && !known.has(a.split('=')[0]!));
  if (!given) return null;
  const flag = given.split('=')[0]!;
  const like = [...known]
    .filter((k) => k.startsWith('--'))
    .map((k) => [k, editDistance(flag, k)] as const)
    .filter(([, dist]) => dist <= 2)
    .sort((a, b) => a[1] - b[1])[0]?.[0];
  return `opção desconhecida: ${flag}${like ? ` (quis dizer ${like}?)` : ''}`;
}

/** pt-BR headings of commander's help (its text is English otherwise). */
const HELP_TITLES: Record<string, string> = {
  'Usage:': 'Uso:',
  'Arguments:': 'Argumentos:',
  'Options:': 'Opções:',
  'Commands:': 'Comandos:',
  'Global Options:': 'Opções globais:',
};

function ptExtras(s: string): string {
  return s
    .replace(/\(default: /g, '(padrão: ')
    .replace(/\(choices: /g, '(opções: ')
    .replace(/, default: /g, ', padrão: ')
    .replace(/, choices: /g, ', opções: ')
    .replace(/\(env: /g, '(variável: ')
    .replace(/, env: /g, ', variável: ');
}

const helpConfig = {
  styleTitle: (title: string) => HELP_TITLES[title] ?? title,
  optionDescription(this: Help, option: Option) {
    return ptExtras(Help.prototype.optionDescription.call(this, option));
  },
  argumentDescription(this: Help, argument: Argument) {
    return ptExtras(Help.prototype.argumentDescription.call(this, argument));
  },
  subcommandTerm(this: Help, cmd: Command) {
    return Help.prototype.subcommandTerm.call(this, cmd).replace(/\[options\]/g, '[opções]');
  },
  commandUsage(this: Help, cmd: Command) {
    return Help.prototype.commandUsage
      .call(this, cmd)
      .replace(/\[options\]/g, '[opções]')
      .replace(/\[command\]/g, '[comando]');
  },
};

/** The version printed by `balcao --version` (package.json). */
export const CLI_VERSION: string = pkg.version;

/** Registers every subcommand. Each issue's commands live in ./commands. */
export function buildProgram(ctx: () => CliContext, io: CliIO = processIO): Command {
  const program = new Command('balcao')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      // Help shown because a command is missing (bare `balcao`, `balcao db`): on stderr, exit 2.
      writeErr: (s) => io.err(s),
      outputError: () => undefined,
    })
    .configureHelp(helpConfig)
    .description('Balcão — cobranças e perguntas de vendas, pela linha de comando')
    .version(CLI_VERSION, '-V, --version', 'mostra a versão')
    .helpOption('-h, --help', 'mostra esta ajuda')
    .helpCommand('help [comando]', 'mostra a ajuda de um comando');
  registerDb(program, ctx);
  registerAsk(program, ctx);
  registerBench(program, ctx);
  registerBenchIntake(program, ctx);
  registerBenchCobrancas(program, ctx);
  registerBenchFila(program, ctx);
  registerBenchWhatsApp(program, ctx);
  registerEval(program, ctx);
  registerExtract(program, ctx);
  registerSql(program, ctx);
  registerPerguntas(program, ctx);
  registerIntake(program, ctx);
  registerUsuarios(program, ctx);
  registerCobrancas(program, ctx);
  // After #36's `lojistas` group (attaches to it; creates it when absent).
  registerLojistasContatos(program, ctx);
  registerLgpd(program, ctx);
  return program;
}

/** Runs the CLI; returns the exit code. */
export async function main(
  argv: string[],
  rawIO: CliIO = processIO,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  // Every line a command prints goes through the one redaction (#12 point 5).
  const io: CliIO = {
    ...rawIO,
    out: (t) => rawIO.out(redactText(t)),
    err: (t) => rawIO.err(redactText(t)),
  };
  let context: CliContext | undefined;
  const logLevel = cliLogLevel(argv, env);
  const ctx = () => (context ??= createCliContext(io, env, logLevel));
  const program = buildProgram(ctx, io);
  // `balcao help usuarios criar` is the help of `usuarios criar` (commander's help command
  // takes one word and would show `usuarios`); `balcao help foo` says foo is no command.
  if (argv[0] === 'help' && argv.length > 1) {
    const words = argv.slice(1).filter((a) => !a.startsWith('-'));
    const { depth } = commandOf(program, words);
    if (depth < words.length) {
      const msg = `comando desconhecido: ${words.slice(0, depth + 1).join(' ')}`;
      if (argv.includes('--json')) io.out(JSON.stringify({ erro: msg }));
      io.err(`balcao: ${msg}\n(use balcao --help para ver os comandos)`);
      return 2;
    }
    argv = [...words, '--help'];
  }
  // The net under everything: an error nobody caught ends the command with exit 1 and a pt-BR
  // message, after printing what a batch already finished.
  const lastResort = installCliLastResort({
    logger: () => context?.logger ?? createLogger(logLevel),
    err: (t) => io.err(t),
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return context?.exitCode ?? 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      // `balcao help` exits 0; help shown for a missing command (bare `balcao`, `balcao db`)
      // is a usage error: exit 2 (and `{"erro": ...}` on stdout with --json).
      if (e.code === 'commander.help' && e.exitCode === 0) return 0;
      const msg =
        e.code === 'commander.help'
          ? 'informe um comando (veja a ajuda acima)'
          : e.code === 'commander.missingMandatoryOptionValue'
            ? (unknownOptionIn(program, argv) ?? usageMessage(e))
            : usageMessage(e);
      if (argv.includes('--json')) io.out(JSON.stringify({ erro: msg }));
      if (e.code !== 'commander.help') io.err(`balcao: ${msg}\n(use --help para ver as opções)`);
      return 2;
    }
    const ce = toCliError(e);
    // Expected failures (pt-BR AppError/CliError) are the message itself; log details at debug.
    // "Erro inesperado" (an unmapped database error included) always logs the full error.
    if (
      e instanceof CliError ||
      (isAppError(e) && e.code !== 'interno') ||
      systemErrorMessage(e) !== null
    )
      context?.logger.debug({ err: e }, 'comando recusado');
    else
      (context?.logger ?? createLogger(logLevel)).error(
        { err: e, causa: causeForLog(e) },
        'falha no comando',
      );
    const wantsJson = argv.includes('--json');
    if (wantsJson) io.out(JSON.stringify({ erro: ce.message }));
    else io.err(`balcao: ${ce.message}`);
    return ce.exitCode;
  } finally {
    await context?.close();
    lastResort.uninstall();
  }
}
