import { createReadStream, type ReadStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
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

  /** `bytes` bytes of a run's file from `offset` (one page of the bundle); undefined when missing. */
  async readRange(
    runId: number,
    file: ArtifactFileName,
    offset: number,
    bytes: number,
  ): Promise<Buffer | undefined> {
    let handle;
    try {
      handle = await open(path.join(this.folderFor(runId), file), 'r');
    } catch {
      return undefined;
    }
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, offset);
      return bytesRead === bytes ? buffer : undefined;
    } finally {
      await handle.close();
    }
  }

  /** Where the run's report is (docs/architecture.md, Run reports); it may not exist. */
  reportPath(runId: number, reportFile: string): string {
    return path.join(this.folderFor(runId), reportFile);
  }

  async remove(runId: number): Promise<void> {
    await rm(this.folderFor(runId), { recursive: true, force: true });
  }
}
