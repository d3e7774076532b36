import { createReadStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ArtifactFileName } from '../domain/index.js';
import type { ArtifactStore, OpenedArtifact } from './artifact-store.js';
import { folderProblem } from './folder-problem.js';
import { fileExists } from '../util/index.js';

/** Finished artifacts in a local folder, one sub-folder per run, where the packager writes them. */
export class LocalArtifactStore implements ArtifactStore {
  constructor(private readonly root: string) {}

  healthProblem(): Promise<string | undefined> {
    return folderProblem(this.root);
  }

  /** Folder the packager writes a run's artifacts into; they stay there. */
  folderFor(runId: number): string {
    return path.join(this.root, String(runId));
  }

  /** The packaged files are already where they are read from. */
  async publish(): Promise<void> {}

  /** A readable stream and size of a run's file, or undefined when the file is missing. */
  async open(runId: number, file: ArtifactFileName): Promise<OpenedArtifact | undefined> {
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

  /** Where the run's report is (docs/design/crawl.md, Run reports and live progress); it may not
   * exist.
   */
  reportPath(runId: number, reportFile: string): string {
    return path.join(this.folderFor(runId), reportFile);
  }

  async reportFile(runId: number, reportFile: string): Promise<string | undefined> {
    const file = this.reportPath(runId, reportFile);
    return (await fileExists(file)) ? file : undefined;
  }

  async withLocalFile<T>(
    runId: number,
    file: ArtifactFileName,
    use: (path: string) => Promise<T>,
  ): Promise<T | undefined> {
    const filePath = path.join(this.folderFor(runId), file);
    return (await fileExists(filePath)) ? use(filePath) : undefined;
  }

  async storedBytes(runId: number): Promise<number> {
    const folder = this.folderFor(runId);
    try {
      const sizes = await Promise.all(
        (await readdir(folder)).map(async (name) => (await stat(path.join(folder, name))).size),
      );
      return sizes.reduce((sum, size) => sum + size, 0);
    } catch {
      return 0;
    }
  }

  async remove(runId: number): Promise<void> {
    await rm(this.folderFor(runId), { recursive: true, force: true });
  }
}
