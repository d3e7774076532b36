import { existsSync } from 'node:fs';
import path from 'node:path';
import { type RunProgress, SqliteRunDataStore } from '../run-data/index.js';

/** The run store's file in a crawl's work folder (see executeCrawl). */
export const RUN_STORE_FILE = 'crawl.db';
/** The object spool's file in a crawl's work folder. */
export const RUN_SPOOL_FILE = 'objects.spool';

/**
 * The progress an interrupted crawl left in its work folder (pages fetched, URLs known), or
 * undefined when the folder holds no run store: nothing to resume there.
 */
export function workFolderProgress(workFolder: string): RunProgress | undefined {
  const file = path.join(workFolder, RUN_STORE_FILE);
  if (!existsSync(file)) return undefined;
  const store = new SqliteRunDataStore(file);
  try {
    return store.progress();
  } finally {
    store.close();
  }
}
