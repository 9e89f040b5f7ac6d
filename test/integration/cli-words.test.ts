/** #41.7 — commander's own words in pt-BR, the real mistake named, help for any command path. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

// Never reaches a database: every case is refused while parsing.
const env = { BALCAO_LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://ninguem@127.0.0.1:1/nada' };
const run = (args: string[]) => runCli(args, env);

describe('CLI words (#41.7)', () => {
  it('a mistyped option is named (with the likely one), not reported as a missing mandatory one', async () => {
    const r = await run(['ask', '--merchnt', '1', 'quanto vendi?']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^balcao: opção desconhecida: --merchnt \(quis dizer --merchant\?\)/);
    expect(r.err).not.toContain('obrigatória');
  });

  it('choices are listed in pt-BR', async () => {
    const r = await run(['fila', 'listar', '--visao', 'abertas']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('use um de: aberta, resolvida, descartada.');
    expect(r.err).not.toMatch(/Allowed choices/);
  });

  it("help of a nested command is that command's; help of no command says so", async () => {
    const h = await run(['help', 'usuarios', 'criar']);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/^Uso: balcao usuarios criar /);
    const foo = await run(['help', 'foo']);
    expect(foo.code).toBe(2);
    expect(foo.err).toMatch(/^balcao: comando desconhecido: foo/);
    expect(foo.out).toBe('');
  });
});
