import path from 'node:path';

/**
 * Layout of the data directory (KUMO_DATA_DIR; docs/operations.md, Data directory): where each
 * file of a kumo installation lives. Only names: creating and locking it is `kumo serve`'s
 * (src/startup/data-dir.ts).
 */
export function dataPaths(dataDir: string) {
  const root = path.resolve(dataDir);
  return {
    root,
    database: path.join(root, 'kumo.db'),
    artifacts: path.join(root, 'artifacts'),
    /** Local copies of what object storage holds (run reports), kept to be read again. */
    artifactCache: path.join(root, 'cache', 'artifacts'),
    work: path.join(root, 'work'),
    /** The page files of running runs' checkpoints, without object storage (src/blob/file-groups.ts). */
    pieces: path.join(root, 'pieces'),
    search: path.join(root, 'search'),
    /** Published generations of search indexes, without object storage (docs/design/scale-out.md,
     * Search nodes).
     */
    generations: path.join(root, 'generations'),
    /** The generations a search node serves, copied from where they were published. */
    searchCache: path.join(root, 'cache', 'search'),
    signingSecret: path.join(root, 'signing-secret'),
    adminToken: path.join(root, 'admin-token'),
    secretKey: path.join(root, 'secret-key'),
    lock: path.join(root, 'serve.lock'),
    pid: path.join(root, 'serve.pid'),
  };
}

/** The index file of a search service. */
export function searchIndexFile(dataDir: string, serviceId: number): string {
  return path.join(dataPaths(dataDir).search, `service-${serviceId}.db`);
}
