/**
 * Strict tool use (#40.6): the Messages API constrains a tool's input to its JSON schema when the
 * tool says `strict: true` — models of the Claude 4.5 family and later. Older models are sent the
 * tool without it (our zod rules validate every input either way). A model the API refuses it
 * for is remembered for the process and asked again without it (tool-loop.ts).
 */

/** `claude-<family>-<major>[-<minor>][-<date>]` (and the `-latest` aliases). */
const MODEL_RE = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?=-|$)/;

/** Models the API rejected `strict` for, during this process. */
const refused = new Set<string>();

export function supportsStrictTools(model: string): boolean {
  if (refused.has(model)) return false;
  const m = MODEL_RE.exec(model);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = m[2] === undefined ? 0 : Number(m[2]);
  return major > 4 || (major === 4 && minor >= 5);
}

/** Whether to declare the tools strict: the setting (BALCAO_STRICT_TOOLS) and the model. */
export function strictToolsFor(s: { strictTools: boolean; model: string }): boolean {
  return s.strictTools && supportsStrictTools(s.model);
}

export function markStrictRefused(model: string): void {
  refused.add(model);
}

/** A 400 from the API that is about the tool's `strict` field (not about our request's content). */
export function isStrictRefusal(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const status = (e as { status?: unknown }).status;
  const message = String((e as { message?: unknown }).message ?? '');
  return status === 400 && /strict/i.test(message);
}
