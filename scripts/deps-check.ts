/**
 * `npm run deps:check`: lists the direct dependencies that are behind the registry and fails
 * (exit 1) when Electron is outside its latest three major versions. It reads the registry npm is
 * configured with (`npm config get registry`), abbreviated metadata, a few requests at a time. When the registry cannot be
 * reached it says so and exits 0: a check that needs the network never fails CI without one.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { buildReport, type InstalledDep, type RegistryLatest } from './deps-policy';

const root = join(import.meta.dirname, '..');
const LOOKUP_TIMEOUT_MS = 20_000;
const CONCURRENCY = 8;

interface Lookup {
  info?: RegistryLatest;
  errorCode?: string;
}

/** The registry npm is configured to use (respects .npmrc and npm_config_registry). */
function npmRegistry(): Promise<string> {
  return new Promise((resolveUrl) => {
    execFile('npm', ['config', 'get', 'registry'], { cwd: root, timeout: 60_000 }, (err, out) => {
      const url = err ? '' : out.trim();
      resolveUrl(
        url && /^https?:\/\//.test(url) ? url.replace(/\/?$/, '/') : 'https://registry.npmjs.org/',
      );
    });
  });
}

/** Reads a package's abbreviated metadata (dist-tags + engines of each version). */
async function registryLatest(registry: string, name: string): Promise<Lookup> {
  try {
    const res = await fetch(`${registry}${name.replace('/', '%2f')}`, {
      headers: { accept: 'application/vnd.npm.install-v1+json' },
      signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
    });
    if (!res.ok) return { errorCode: `HTTP ${res.status}` };
    const doc = (await res.json()) as {
      'dist-tags'?: { latest?: string };
      versions?: Record<string, { engines?: { node?: string } }>;
    };
    const version = doc['dist-tags']?.latest;
    if (!version) return { errorCode: 'sem versão' };
    return { info: { version, engines: doc.versions?.[version]?.engines } };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    return { errorCode: err.cause?.code ?? err.cause?.message ?? err.message };
  }
}

async function lookupAll(registry: string, names: string[]): Promise<Map<string, Lookup>> {
  const out = new Map<string, Lookup>();
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      out.set(name, await registryLatest(registry, name));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

function installedDeps(): { deps: InstalledDep[]; nodeFloor: string } {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    engines?: { node?: string };
  };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const deps: InstalledDep[] = [];
  for (const [dev, table] of [
    [false, pkg.dependencies ?? {}],
    [true, pkg.devDependencies ?? {}],
  ] as const) {
    for (const [name, spec] of Object.entries(table)) {
      const current = lock.packages[`node_modules/${name}`]?.version ?? spec;
      deps.push({ name, spec, current, dev });
    }
  }
  const nodeFloor = semver.minVersion(pkg.engines?.node ?? '>=20.0.0')?.version ?? '20.0.0';
  return { deps, nodeFloor };
}

async function run(): Promise<number> {
  const { deps, nodeFloor } = installedDeps();
  const registry = await npmRegistry();
  const lookups = await lookupAll(
    registry,
    deps.map((d) => d.name),
  );
  const electron = lookups.get('electron');
  if (!electron?.info) {
    console.log(
      `Registro npm inacessível (${registry}: ${electron?.errorCode ?? 'sem resposta'}): não foi possível verificar as dependências nem a versão do Electron. Nada foi reprovado; rode de novo com acesso à rede.`,
    );
    return 0;
  }
  const latest = new Map<string, RegistryLatest | undefined>(
    [...lookups].map(([name, l]) => [name, l.info]),
  );
  const report = buildReport(deps, latest, nodeFloor);
  for (const line of report.lines) console.log(line);
  return report.exitCode;
}

process.exitCode = await run();
