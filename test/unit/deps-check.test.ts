/** `npm run deps:check`: its decisions on canned registry data, and the no-network path for real. */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acceptsNode,
  buildReport,
  electronVerdict,
  type InstalledDep,
  type RegistryLatest,
} from '../../scripts/deps-policy';

const dep = (name: string, current: string, dev = false): InstalledDep => ({
  name,
  spec: current,
  current,
  dev,
});

describe('Electron support window (latest three majors)', () => {
  it('45, 44 and 43 are supported when 45 is the latest; 42 is not', () => {
    expect(electronVerdict('45.5.0', '45.5.0')).toMatchObject({
      supported: true,
      supportedMajors: [45, 44, 43],
    });
    expect(electronVerdict('43.0.0', '45.5.0').supported).toBe(true);
    expect(electronVerdict('42.9.9', '45.5.0').supported).toBe(false);
    expect(electronVerdict('41.7.1', '45.5.0').supported).toBe(false);
  });

  it('a new major moves the window', () => {
    expect(electronVerdict('43.1.0', '46.0.0').supported).toBe(false);
    expect(electronVerdict('44.0.0', '46.0.0').supported).toBe(true);
  });
});

describe('report', () => {
  const registry = (entries: Record<string, RegistryLatest | undefined>) =>
    new Map(Object.entries(entries));

  it('fails (exit 1) with a pt-BR reason when Electron left the window', () => {
    const r = buildReport(
      [dep('electron', '41.7.1', true), dep('pg', '8.23.1')],
      registry({ electron: { version: '45.5.0' }, pg: { version: '8.23.1' } }),
      '20.11.0',
    );
    expect(r.exitCode).toBe(1);
    expect(r.lines.join('\n')).toMatch(
      /Electron 41\.7\.1 está fora das três últimas versões principais \(45, 44, 43\)/,
    );
    expect(r.outdated.map((o) => o.name)).toEqual(['electron']);
  });

  it('passes (exit 0) and lists outdated packages, telling which the system Node holds back', () => {
    const r = buildReport(
      [
        dep('electron', '45.5.0', true),
        dep('commander', '14.0.3'),
        dep('electron-store', '11.0.2'),
        dep('vite', '8.3.8', true),
        dep('zod', '4.6.7'),
      ],
      registry({
        electron: { version: '45.5.0', engines: { node: '>= 22.12.0' } },
        commander: { version: '15.1.0', engines: { node: '>=22.12.0' } },
        'electron-store': { version: '12.0.0', engines: { node: '>=22' } },
        vite: { version: '8.4.0', engines: { node: '^20.19.0 || >=22.12.0' } },
        zod: { version: '4.6.7' },
      }),
      '20.19.0',
    );
    expect(r.exitCode).toBe(0);
    const byName = Object.fromEntries(r.outdated.map((o) => [o.name, o]));
    expect(Object.keys(byName).sort()).toEqual(['commander', 'electron-store', 'vite']);
    expect(byName.commander).toMatchObject({ latest: '15.1.0', runsHere: false });
    expect(byName.commander!.nota).toMatch(/pede Node >=22\.12\.0: fica/);
    expect(byName['electron-store']).toMatchObject({ runsHere: true });
    expect(byName['electron-store']!.nota).toMatch(/Node do Electron/);
    expect(byName.vite).toMatchObject({ runsHere: true, nota: 'pode atualizar', dev: true });
    expect(r.lines.join('\n')).toMatch(/Electron 45\.5\.0: dentro das versões com suporte/);
  });

  it('names packages the registry did not answer for, and never fails for them', () => {
    const r = buildReport(
      [dep('electron', '45.5.0', true), dep('pino', '10.4.0')],
      registry({ electron: { version: '45.5.0' }, pino: undefined }),
      '20.11.0',
    );
    expect(r.naoConsultados).toEqual(['pino']);
    expect(r.exitCode).toBe(0);
    expect(r.lines.join('\n')).toMatch(/Sem resposta do registro para: pino/);
  });

  it('packages held back on purpose say why', () => {
    const r = buildReport(
      [dep('typescript', '6.0.3', true), dep('@types/node', '20.19.43', true)],
      registry({ typescript: { version: '7.0.2' }, '@types/node': { version: '26.6.7' } }),
      '20.11.0',
    );
    expect(r.outdated.every((o) => !o.runsHere)).toBe(true);
    expect(r.outdated.find((o) => o.name === 'typescript')!.nota).toMatch(/typescript-eslint/);
  });

  it('engines ranges against the lowest supported Node', () => {
    expect(acceptsNode(undefined, '20.11.0')).toBe(true);
    expect(acceptsNode('>=18', '20.11.0')).toBe(true);
    expect(acceptsNode('>=22', '20.11.0')).toBe(false);
    expect(acceptsNode('^20.19.0 || >=22.12.0', '20.11.0')).toBe(false);
  });
});

describe('npm run deps:check without a registry', () => {
  it('says the registry is unreachable and exits 0', async () => {
    const root = join(__dirname, '../..');
    const port = await new Promise<number>((resolvePort) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolvePort(p));
      });
    });
    const r = await new Promise<{ code: number; out: string }>((resolveRun) => {
      execFile(
        process.execPath,
        [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/deps-check.ts'],
        { cwd: root, env: { ...process.env, npm_config_registry: `http://127.0.0.1:${port}/` } },
        (err, stdout) =>
          resolveRun({ code: (err as { code?: number } | null)?.code ?? 0, out: stdout }),
      );
    });
    expect(r.out).toContain(`Registro npm inacessível (http://127.0.0.1:${port}/: ECONNREFUSED)`);
    expect(r.out).toMatch(/Nada foi reprovado/);
    expect(r.code).toBe(0);
  }, 120_000);
});
