// The dependency rules of src/ (docs/design/layers.md, Source layout), checked by `npm run lint`
// (scripts/check-dependencies.mjs) in CI. Type-only imports count like any other.

// The folders of src/ from the bottom layer up: a folder imports only from folders before it,
// so dependencies point one way and no cycle can form between folders. A folder of src/ missing
// here fails scripts/check-dependencies.mjs.
export const LAYERS = [
  'types',
  'util',
  'domain',
  'security',
  'config',
  'net',
  'run-data',
  'store',
  'blob',
  'artifacts',
  'browser',
  'crawler',
  'observability',
  'search',
  'worker',
  'usecases',
  'webhooks',
  'scheduler',
  'api',
  'client',
  'widget',
  'console',
  'startup',
  'cli',
];

const layerRules = LAYERS.slice(0, -1).map((folder, index) => {
  const above = LAYERS.slice(index + 1);
  return {
    name: `layer-${folder}`,
    comment:
      `src/${folder} is below ${above.join(', ')} in the layers of docs/architecture.md: ` +
      'pass what it needs in, or move the shared piece down.',
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: `^src/(${above.join('|')})/` },
  };
});

export default {
  forbidden: [
    ...layerRules,
    {
      name: 'use-cases-without-frameworks',
      comment:
        'src/usecases is the use-case layer: no HTTP framework, command line parser or concrete ' +
        'store. The adapters (src/api, src/cli) and the composition roots (src/startup, src/cli) ' +
        'bring those (docs/design/management.md, Management layer).',
      severity: 'error',
      from: { path: '^src/usecases/' },
      to: {
        path: [
          '^src/store/(sqlite|postgres)/',
          '^node_modules/(fastify|@fastify/[^/]+|commander|better-sqlite3|postgres)/',
        ],
      },
    },
    {
      name: 'concrete-store-in-composition-roots',
      comment:
        'Only the composition roots choose a concrete store (SQLite or PostgreSQL): src/startup and ' +
        "src/cli the record store, a run's thread in src/worker its run store. The API, webhooks " +
        'and scheduler work on the interfaces of src/store.',
      severity: 'error',
      from: { path: '^src/(api|webhooks|scheduler|observability)/' },
      to: { path: '^src/store/(sqlite|postgres)/' },
    },
    {
      name: 'console-is-browser-code',
      comment:
        'src/console runs in the browser and reaches the service only through the documented ' +
        'management API (docs/console.md): it imports nothing of the server side.',
      severity: 'error',
      from: { path: '^src/console/' },
      to: { path: '^src/', pathNot: '^src/console/' },
    },
    {
      name: 'management-through-its-index',
      comment:
        "src/usecases/management is used through its index.ts: the adapters see the layer's " +
        'operations, inputs and errors, not how it is split into files.',
      severity: 'error',
      from: { pathNot: '^src/usecases/management/' },
      to: { path: '^src/usecases/management/', pathNot: '^src/usecases/management/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        'Files that import each other cannot be read, tested or moved apart: a type both need ' +
        'lives in a file of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: '^node_modules' },
    includeOnly: { path: ['^src/', '^node_modules/'] },
  },
};
