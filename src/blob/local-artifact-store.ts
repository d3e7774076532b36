import { createReadStream, type ReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactFileName } from '../domain/artifact-files.js';

/**
 * Finished artifacts in a local folder, one sub-folder per run. The interface is what an
 * S3-compatible store would also offer (write a run's files, open one, remove a run's files).
 */
export class LocalArtifactStore {
  constructor(private readonly root: string) {}

  /** Folder the packager writes a run's artifacts into. */
  folderFor(runId: number): string {
    return path.join(this.root, String(runId));
  }

  /** A readable stream and size of a run's file, or undefined when the file is missing. */
  async open(
    runId: number,
    file: ArtifactFileName,
  ): Promise<{ stream: ReadStream; bytes: number } | undefined> {
    const filePath = path.join(this.folderFor(runId), file);
    try {
      const info = await stat(filePath);
      return { stream: createReadStream(filePath), bytes: info.size };
    } catch {
      return undefined;
    }
  }

  async remove(runId: number): Promise<void> {
    await rm(this.folderFor(runId), { recursive: true, force: true });
  }
}
