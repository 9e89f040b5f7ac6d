import type { z } from 'zod';

/** Turns zod issues into pt-BR sentences, grouped by field path ("" = whole object). */
export function issuesByField(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Flat list of "campo: mensagem" sentences. */
export function issueList(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}
