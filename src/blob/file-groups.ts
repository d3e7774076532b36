import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PRIVATE_FOLDER_MODE } from '../util/index.js';

/**
 * Files kept in groups, by name: the page files of running runs saved with their checkpoints
 * (docs/design/scale-out.md, Run leases; a group per run) and the published generations of search
 * indexes (docs/design/scale-out.md, Search nodes; a group per search service). Names are chosen by
 * the writer to be unique, so no upload ever replaces a file another process may be reading.
 */
export interface FileGroupStore {
  /** Stores the local file as `name` of the group. */
  save(group: number, name: string, file: string): Promise<void>;
  /** The file's bytes, or undefined when it is missing. */
  open(group: number, name: string): Promise<Readable | undefined>;
  /** Whether the group holds a file of that name. */
  exists(group: number, name: string): Promise<boolean>;
  /** The group's files, with their bytes and when they were written (ms since the epoch). */
  list(group: number): Promise<GroupFile[]>;
  /** Removes one file (missing is fine). */
  remove(group: number, name: string): Promise<void>;
  /** Removes every file of the group. */
  removeAll(group: number): Promise<void>;
}

export interface GroupFile {
  name: string;
  bytes: number;
  modifiedMs: number;
}

/** Files in a folder of the data directory (`<root>/<group>/<name>`, e.g. `<data>/pieces/<run id>/<name>`). */
export class LocalFileGroups implements FileGroupStore {
  constructor(private readonly root: string) {}

  async save(group: number, name: string, file: string): Promise<void> {
    const folder = path.join(this.root, String(group));
    await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    // Copied under a part name, then renamed: a reader never finds a file half written.
    const part = path.join(folder, `.${name}.part`);
    await copyFile(file, part);
    await rename(part, path.join(folder, name));
  }

  async exists(group: number, name: string): Promise<boolean> {
    return stat(path.join(this.root, String(group), name)).then(
      () => true,
      () => false,
    );
  }

  async list(group: number): Promise<GroupFile[]> {
    const folder = path.join(this.root, String(group));
    const names = await readdir(folder).catch(() => [] as string[]);
    const files = await Promise.all(
      names
        .filter((name) => !name.startsWith('.'))
        .map(async (name) => {
          const info = await stat(path.join(folder, name)).catch(() => undefined);
          return info && { name, bytes: info.size, modifiedMs: info.mtimeMs };
        }),
    );
    return files.filter((file): file is GroupFile => file !== undefined);
  }

  async open(group: number, name: string): Promise<Readable | undefined> {
    const stream = createReadStream(path.join(this.root, String(group), name));
    return new Promise((resolve) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', () => resolve(undefined));
    });
  }

  async remove(group: number, name: string): Promise<void> {
    await rm(path.join(this.root, String(group), name), { force: true });
  }

  async removeAll(group: number): Promise<void> {
    await rm(path.join(this.root, String(group)), { recursive: true, force: true });
  }
}
