/**
 * The decisions behind `npm run deps:check`, free of I/O so tests can feed canned registry data:
 * which direct dependencies are behind the registry, whether each newest version still runs on
 * the lowest Node we support, and whether Electron is inside its support window (the latest
 * three major versions).
 */
import semver from 'semver';

/** How many Electron majors get security fixes (Electron's own policy). */
export const ELECTRON_SUPPORTED_MAJORS = 3;

/**
 * Packages that only ever run on Electron's own Node (the app's main process), so a newer
 * `engines.node` than the system's does not hold them back.
 */
export const RUNS_ON_ELECTRON_NODE = new Set(['electron', 'electron-store']);

/** Kept back on purpose, with the reason printed next to them. */
export const HELD_BACK: Record<string, string> = {
  '@types/node': 'tipos do Node mais antigo suportado (20): fica na linha 20.x',
  typescript:
    'typescript-eslint aceita typescript < 6.1 e o TypeScript 7 não traz a API JS que ele usa: fica',
};

export interface InstalledDep {
  name: string;
  /** The range written in package.json. */
  spec: string;
  /** The version the lockfile installs. */
  current: string;
  dev: boolean;
}

/** What the registry says about a package's newest version (undefined: the lookup failed). */
export interface RegistryLatest {
  version: string;
  engines?: { node?: string };
}

export interface OutdatedRow {
  name: string;
  current: string;
  latest: string;
  dev: boolean;
  /** The newest version accepts our lowest supported Node (or runs on Electron's Node). */
  runsHere: boolean;
  nota: string;
}

export interface ElectronVerdict {
  current: string;
  latest: string;
  supportedMajors: number[];
  supported: boolean;
}

export interface DepsReport {
  outdated: OutdatedRow[];
  /** Packages the registry did not answer for. */
  naoConsultados: string[];
  electron?: ElectronVerdict;
  exitCode: 0 | 1;
  lines: string[];
}

export function electronVerdict(current: string, latest: string): ElectronVerdict {
  const latestMajor = semver.major(latest);
  const supportedMajors = Array.from(
    { length: ELECTRON_SUPPORTED_MAJORS },
    (_, i) => latestMajor - i,
  );
  return {
    current,
    latest,
    supportedMajors,
    supported: supportedMajors.includes(semver.major(current)),
  };
}

/** Does a package's `engines.node` accept our lowest supported Node? */
export function acceptsNode(enginesNode: string | undefined, nodeFloor: string): boolean {
  if (!enginesNode) return true;
  try {
    return semver.satisfies(nodeFloor, enginesNode, { includePrerelease: true });
  } catch {
    return true; // an unparsable range says nothing
  }
}

export function buildReport(
  installed: InstalledDep[],
  registry: Map<string, RegistryLatest | undefined>,
  nodeFloor: string,
): DepsReport {
  const outdated: OutdatedRow[] = [];
  const naoConsultados: string[] = [];
  for (const dep of installed) {
    const info = registry.get(dep.name);
    if (!info) {
      naoConsultados.push(dep.name);
      continue;
    }
    if (!semver.valid(dep.current) || !semver.valid(info.version)) continue;
    if (!semver.gt(info.version, dep.current)) continue;
    const onElectron = RUNS_ON_ELECTRON_NODE.has(dep.name);
    const nodeOk = acceptsNode(info.engines?.node, nodeFloor);
    const runsHere = (nodeOk || onElectron) && !HELD_BACK[dep.name];
    const held = HELD_BACK[dep.name];
    const nota = held
      ? held
      : nodeOk
        ? 'pode atualizar'
        : onElectron
          ? `pede Node ${info.engines?.node}, mas roda só no Node do Electron: pode atualizar`
          : `pede Node ${info.engines?.node}: fica enquanto o mínimo for Node ${nodeFloor}`;
    outdated.push({
      name: dep.name,
      current: dep.current,
      latest: info.version,
      dev: dep.dev,
      runsHere,
      nota,
    });
  }

  const electronDep = installed.find((d) => d.name === 'electron');
  const electronLatest = registry.get('electron');
  const electron =
    electronDep && electronLatest && semver.valid(electronDep.current)
      ? electronVerdict(electronDep.current, electronLatest.version)
      : undefined;

  const lines: string[] = [];
  if (outdated.length === 0) lines.push('Todas as dependências diretas estão na versão mais nova.');
  else {
    lines.push(`Dependências desatualizadas (${outdated.length}):`);
    const w = Math.max(...outdated.map((r) => r.name.length));
    for (const r of outdated) {
      lines.push(
        `  ${r.name.padEnd(w)}  ${r.current} → ${r.latest}${r.dev ? ' (dev)' : ''}  — ${r.nota}`,
      );
    }
  }
  if (naoConsultados.length) {
    lines.push(`Sem resposta do registro para: ${naoConsultados.join(', ')}.`);
  }
  let exitCode: 0 | 1 = 0;
  if (electron) {
    const janela = electron.supportedMajors.join(', ');
    if (electron.supported) {
      lines.push(`Electron ${electron.current}: dentro das versões com suporte (${janela}).`);
    } else {
      exitCode = 1;
      lines.push(
        `ERRO: Electron ${electron.current} está fora das três últimas versões principais (${janela}) e não recebe mais correções de segurança. Atualize para ${electron.latest}.`,
      );
    }
  }
  return { outdated, naoConsultados, electron, exitCode, lines };
}
