import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileGroupStore } from '../../blob/index.js';
import type { SearchGenerationStore } from '../../store/index.js';
import { PRIVATE_FOLDER_MODE, fileExists } from '../../util/index.js';
import { GenerationObjects, isManifestName, removeCopy } from './generation-objects.js';

/** A generation on local disk, ready to be opened. */
export interface LocalGeneration {
  generation: number;
  file: string;
}

/**
 * The reading side of search nodes (docs/design/scale-out.md, Search nodes): the local copies of the
 * generations a node serves, `<cache>/<service id>/<generation>.db`, each fetched once from where
 * it was published (written to a part file, then renamed, so a half-fetched file is never
 * opened). A copy is private to its node: SQLite may write to it (its WAL, cached readings) without
 * touching the published file. A generation published as objects is made from the copy the node
 * served before the last (`spare.db`) or else from its never-served `pristine.db`, with only the
 * deltas it lacks fetched (docs/design/scale-out.md, Generations as objects).
 */
export class GenerationCache {
  private readonly objects: GenerationObjects;
  /** Bytes fetched from storage since the process started (the node's metrics). */
  fetchedBytes = 0;

  constructor(
    private readonly generations: SearchGenerationStore,
    private readonly files: FileGroupStore,
    private readonly root: string,
  ) {
    this.objects = new GenerationObjects(files, root, true);
  }

  /** The newest generation of the service on local disk, fetched if needed; undefined when none was published. */
  async current(serviceId: number): Promise<LocalGeneration | undefined> {
    const current = await this.generations.current(serviceId);
    if (current === undefined) return undefined;
    const file = this.fileOf(serviceId, current.generation);
    if (await fileExists(file)) return { generation: current.generation, file };
    if (isManifestName(current.name)) {
      const manifest = await this.objects.manifest(serviceId, current.name);
      this.fetchedBytes += await this.objects.assemble(serviceId, manifest, file);
      return { generation: current.generation, file };
    }
    const body = await this.files.open(serviceId, current.name);
    if (body === undefined)
      throw new Error(
        `generation ${current.generation} of search service ${serviceId} (${current.name}) is missing from storage`,
      );
    const part = `${file}.${randomBytes(4).toString('hex')}.part`;
    await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    try {
      await pipeline(body, createWriteStream(part, { mode: 0o600 }));
      await rename(part, file);
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
    return { generation: current.generation, file };
  }

  /** An empty index for a service nothing was published for yet. */
  async empty(serviceId: number): Promise<LocalGeneration> {
    const file = this.fileOf(serviceId, 0);
    await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return { generation: 0, file };
  }

  /** Takes in a generation this process published (its snapshot file, moved in place of a download). */
  async adopt(serviceId: number, generation: number, snapshot: string): Promise<LocalGeneration> {
    const file = this.fileOf(serviceId, generation);
    await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await rename(snapshot, file);
    return { generation, file };
  }

  /**
   * Removes every copy a node served (a node starting: what it served before is made again if
   * still newest), but not the pristine and spare copies and the deltas fetched for them, from
   * which it makes the next one fetching only what it lacks. A service with no generation any
   * more (deleted) loses its folder.
   */
  async clear(): Promise<void> {
    const services = await readdir(this.root, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      services.map(async (entry) => {
        const folder = path.join(this.root, entry.name);
        if (
          !entry.isDirectory() ||
          !/^\d+$/.test(entry.name) ||
          !(await this.stillPublished(Number(entry.name)))
        )
          return rm(folder, { recursive: true, force: true });
        const names = await readdir(folder);
        await Promise.all(
          names
            .filter((name) => !GenerationObjects.keepsAcrossRestarts(name))
            .map((name) => rm(path.join(folder, name), { recursive: true, force: true })),
        );
      }),
    );
  }

  /**
   * Gives up a copy no longer served (closed): a generation assembled here is kept as its
   * service's spare, any other file is removed with SQLite's side files.
   */
  async discard(file: string): Promise<void> {
    const folder = path.dirname(file);
    const serviceId = Number(path.basename(folder));
    if (
      path.dirname(folder) === this.root &&
      Number.isSafeInteger(serviceId) &&
      /^\d+\.db$/.test(path.basename(file))
    )
      await this.objects.retire(serviceId, file);
    else await removeCopy(file);
  }

  /** Whether a service has a generation; kept as if it had when the store cannot say. */
  private stillPublished(serviceId: number): Promise<boolean> {
    return this.generations.current(serviceId).then(
      (current) => current !== undefined,
      () => true,
    );
  }

  private fileOf(serviceId: number, generation: number): string {
    return path.join(this.root, String(serviceId), `${generation}.db`);
  }
}
