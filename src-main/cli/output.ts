import type { CliContext } from './context';

/** Prints one JSON object with --json, else the human sentence. */
export function printResult(
  c: CliContext,
  json: boolean | undefined,
  data: unknown,
  human: () => string,
): void {
  c.io.out(json ? JSON.stringify(data) : human());
}
