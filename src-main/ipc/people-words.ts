/**
 * Error messages as the people in the window read them (#42.6). Services write one message for
 * every boundary, and the CLI's reader is whoever runs or installs Balcão: a server to check, a
 * variable to set. At the IPC boundary those messages become what a person in the window can do.
 * Pure: no I/O, no Electron.
 */
import { MSG_DB_UNREACHABLE, MSG_DB_UNREACHABLE_APP } from '../db/errors';
import { NO_API_KEY_MESSAGE, NO_API_KEY_MESSAGE_APP } from '../llm/client';

/** Messages with a better wording for people, word for word. */
const EXACT: ReadonlyMap<string, string> = new Map([
  [MSG_DB_UNREACHABLE, MSG_DB_UNREACHABLE_APP],
  [NO_API_KEY_MESSAGE, NO_API_KEY_MESSAGE_APP],
]);

/** An environment variable's name (ANTHROPIC_BASE_URL, BALCAO_MAX_TOKENS). */
const ENV_VAR = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
/** A parenthesis that holds a code ("(max_tokens = 1024)", "(BALCAO_REQUEST_TIMEOUT_MS)"). */
const CODE_ASIDE = /\s*\([^()]*\b[A-Za-z]+_[A-Za-z_]+\b[^()]*\)/g;

export const ASK_ADMIN = 'Se continuar, avise o administrador.';
export const MISSING_SETUP =
  'Falta ajustar a configuração do Balcão neste computador: peça ao administrador.';

/**
 * The message for people: a known one reworded; otherwise, when it names an environment
 * variable, the sentences about it go (with any code in parentheses) and the person is told to
 * tell the administrator. Anything else is kept as it is.
 */
export function forPeople(message: string): string {
  const exact = EXACT.get(message);
  if (exact) return exact;
  if (!ENV_VAR.test(message)) return message;
  const kept = message
    .split(/(?<=[.!?])\s+/)
    .filter((s) => !ENV_VAR.test(s))
    .map((s) => s.replace(CODE_ASIDE, '').replace(/[:;,]\s*$/, '.'))
    .filter((s) => s.trim());
  if (!kept.length) return MISSING_SETUP;
  return `${kept.join(' ')} ${ASK_ADMIN}`;
}
