import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ObjectSpool } from '../artifacts/object-spool.js';
import { type PackagedArtifact, packageArtifacts } from '../artifacts/package-artifacts.js';
import {
  type CrawlControl,
  type CrawlEngineDeps,
  type CrawlOutcome,
  runCrawl,
} from '../crawler/crawl-engine.js';
import type { CrawlSettings } from '../domain/crawl-settings.js';
import type { RunProgress } from '../store/run-data.js';
import { SqliteRunDataStore } from '../store/sqlite/run-data-store.js';

export interface CrawlWorkspace {
  /** Folder of the run's working data (run store, object spool); kept until the run ends. */
  workFolder: string;
  /** Folder the artifacts are written to. */
  artifactFolder: string;
}

export interface CrawlExecution {
  outcome: CrawlOutcome;
  progress: RunProgress;
  artifacts: PackagedArtifact[];
}

/**
 * Crawls with a run store and spool in `workFolder` (resuming what is there), then packages the
 * artifacts when the outcome is one that produces them.
 */
export async function executeCrawl(
  settings: CrawlSettings,
  workspace: CrawlWorkspace,
  deps: Omit<CrawlEngineDeps, 'store' | 'spool'>,
  control: CrawlControl,
  packagesOn: ReadonlySet<CrawlOutcome>,
): Promise<CrawlExecution> {
  await mkdir(workspace.workFolder, { recursive: true });
  const store = new SqliteRunDataStore(path.join(workspace.workFolder, 'crawl.db'));
  const spool = new ObjectSpool(path.join(workspace.workFolder, 'objects.spool'));
  try {
    const outcome = await runCrawl(settings, { ...deps, store, spool }, control);
    const progress = store.progress();
    let artifacts: PackagedArtifact[] = [];
    if (packagesOn.has(outcome)) {
      await mkdir(workspace.artifactFolder, { recursive: true });
      artifacts = await packageArtifacts(store, spool, settings, workspace.artifactFolder, deps.timezone);
    }
    return { outcome, progress, artifacts };
  } finally {
    store.close();
    spool.close();
  }
}
