// The dependency rules of src/ (docs/design/layers.md, Source layout), checked by `npm run lint`
// (scripts/check-dependencies.mjs) in CI over src/, test/, bench/ and scripts/. Type-only and
// dynamic imports count like any other.

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

// What another folder may import of each folder of src/: its index.ts, and the entry points named
// here. An entry point is a part that loads apart from the rest of its folder: a package that takes
// long to load, or code only a thread, a command or a first request needs. Node.js evaluates every
// module an index.ts re-exports, so putting such a part in the index would load it into every
// process and thread that imports the folder (docs/design/layers.md, Surfaces).
export const ENTRY_POINTS = {
  api: {
    'schemas/site-search-schemas.ts':
      "the site search's response shapes, which the browser client types itself with",
  },
  blob: { 's3.ts': 'the S3 client, loaded only for a bucket' },
  browser: { 'rendering.ts': "page rendering, for a run's thread and the rendering bench" },
  crawler: {
    'engine.ts': "the crawl itself, for a run's thread and kumo crawl",
    'charset.ts': "decoding a stored page's text, for indexing a bundle",
  },
  domain: { 'schemas.ts': 'the TypeBox schemas, whose package threads do not load' },
  net: { 'guarded-connector.ts': 'the guarded HTTP client, for whatever makes requests' },
  observability: { 'service-logger.ts': "the process's logger, which threads do not load" },
  search: {
    'indexing.ts': 'turning bundles into documents, for kumo index and feeding',
    'local-index.ts': 'an index file opened in this process, for kumo index and kumo search',
    'ranking.ts': 'planning and ranking a query without the site search, for benches and ranking tests',
    'site/index.ts': 'the site search over an opened index, for kumo search and the engine',
    'site/facet-rules.ts': 'facet rules, for the facet preview in tenant work threads',
  },
  startup: {
    'service.ts': 'the whole service, for kumo serve',
    'front-door.ts': 'the front door of a split search address, started on its own',
  },
  store: {
    'sqlite/index.ts': 'the record store on SQLite',
    'postgres/index.ts': 'the record store on PostgreSQL, loaded only for a database server',
  },
  worker: {
    'execute-crawl.ts': "a whole crawl in the calling thread, for a run's thread and the crawl tests",
  },
};

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Tests of a folder (test/<folder>/) may reach its internals; everything else goes through the surfaces.
const surfaceRules = LAYERS.map((folder) => {
  const entries = ['index.ts', ...Object.keys(ENTRY_POINTS[folder] ?? {})];
  return {
    name: `surface-${folder}`,
    comment:
      `Import src/${folder} through ${entries.map((entry) => `src/${folder}/${entry}`).join(', ')}: ` +
      'add what another folder needs to the index (or, for a part that must load on its own, name an ' +
      'entry point in ENTRY_POINTS).',
    severity: 'error',
    from: { pathNot: `^(src|test)/${folder}/` },
    to: { path: `^src/${folder}/`, pathNot: `^src/${folder}/(${entries.map(escaped).join('|')})$` },
  };
});

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
    ...surfaceRules,
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
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: '^node_modules' },
    includeOnly: { path: ['^src/', '^test/', '^bench/', '^scripts/', '^node_modules/'] },
  },
};
