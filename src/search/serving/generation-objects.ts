import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileGroupStore, GroupFile } from '../../blob/index.js';
import { settleIndexFile } from '../storage/generation-delta.js';
import { applyDeltaOffThread } from './delta-thread.js';
import { PRIVATE_FOLDER_MODE, Turns, fileExists } from '../../util/index.js';

/**
 * Generations as objects (docs/design/scale-out.md, Generations as objects): a published
 * generation is a manifest naming a base (a whole snapshot of the index file) and the deltas
 * applied to it since, each an immutable object named by the SHA-256 of its bytes. A writer
 * uploads only the objects the store lacks; a node fetches only the deltas it lacks. It serves a
 * new generation from the copy it served before the last (its spare), brought forward by the
 * deltas since, so a small change costs a small write; when it has none to hand (the first
 * generation, or two generations within the time a retired one stays open), it copies its
 * pristine copy, never served, brought forward the same way.
 */

export interface GenerationObject {
  /** `<sha-256 hex>.db` (a base) or `<sha-256 hex>.delta`. */
  name: string;
  bytes: number;
  /** A base's documents, or the documents a delta writes or removes. */
  documents: number;
}

export interface GenerationManifest {
  format: number;
  /** The schema digest of the base, which every delta applies to (generation-changes.ts). */
  schema: string;
  base: GenerationObject;
  deltas: GenerationObject[];
}

const MANIFEST_FORMAT = 1;
const MANIFEST_SUFFIX = '.manifest';
/** A manifest is a few hundred bytes; anything far larger under that name is not one. */
const MANIFEST_MAX_BYTES = 1024 * 1024;
const OBJECT_NAME = /^([0-9a-f]{64})\.(db|delta|manifest)$/;

/** Whether a generation's recorded name is a manifest (else a whole index file, as published before). */
export const isManifestName = (name: string): boolean => name.endsWith(MANIFEST_SUFFIX);

/** The objects a manifest names, itself included. */
function objectsNamedBy(manifestName: string, manifest: GenerationManifest): string[] {
  return [manifestName, manifest.base.name, ...manifest.deltas.map((delta) => delta.name)];
}

/** What a node's local copy holds: the base it began from and the deltas applied since, in order. */
interface CopyState {
  base: string;
  deltas: string[];
}

/** A node's copy never served, brought forward only to be copied. */
const PRISTINE = 'pristine.db';
/** A copy a node served and closed, brought forward by deltas in place of a copy of the pristine one. */
const SPARE = 'spare.db';
/** The deltas a node fetched for the current base, kept for the copies still behind them. */
const DELTAS = 'deltas';
/** What a node keeps of a service across restarts (`clear`), SQLite's side files included. */
const KEPT_NAMES = new Set([
  DELTAS,
  ...[PRISTINE, SPARE].flatMap((name) => [name, `${name}-wal`, `${name}-shm`, stateFileOf(name)]),
]);

export class GenerationObjects {
  private readonly turns = new Turns<number>();

  constructor(
    private readonly files: FileGroupStore,
    /** Where a node's copies are kept (`<root>/<service id>/`). */
    private readonly root: string,
    /**
     * Whether a spare is made from the pristine copy whenever none is to hand (a node serving the
     * generations it makes), so that the next delta too is a small write.
     */
    private readonly keepSpares = false,
  ) {}

  /** Stores a local file as an object named by its content, unless the store has it already. */
  async save(
    serviceId: number,
    file: string,
    kind: 'db' | 'delta',
    documents: number,
  ): Promise<GenerationObject> {
    const name = `${await sha256Of(createReadStream(file))}.${kind}`;
    const { size } = await stat(file);
    if (!(await this.files.exists(serviceId, name))) await this.files.save(serviceId, name, file);
    return { name, bytes: size, documents };
  }

  /** Stores a manifest (through a scratch file in `folder`); answers its name. */
  async saveManifest(serviceId: number, manifest: GenerationManifest, folder: string): Promise<string> {
    const body = Buffer.from(JSON.stringify(manifest));
    const name = `${createHash('sha256').update(body).digest('hex')}${MANIFEST_SUFFIX}`;
    if (await this.files.exists(serviceId, name)) return name;
    const file = path.join(folder, `${randomBytes(6).toString('hex')}${MANIFEST_SUFFIX}`);
    await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await writeFile(file, body, { mode: 0o600 });
    try {
      await this.files.save(serviceId, name, file);
    } finally {
      await rm(file, { force: true });
    }
    return name;
  }

  /** Reads a published manifest; throws naming it when it is missing or not a manifest. */
  async manifest(serviceId: number, name: string): Promise<GenerationManifest> {
    const body = await this.files.open(serviceId, name);
    if (body === undefined)
      throw new Error(`the manifest ${name} of search service ${serviceId} is missing from storage`);
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > MANIFEST_MAX_BYTES)
        throw new Error(`the manifest ${name} of search service ${serviceId} is too large`);
      chunks.push(chunk);
    }
    return parseManifest(Buffer.concat(chunks).toString('utf8'), name);
  }

  /**
   * Writes the generation of `manifest` to `target` (`<service folder>/<generation>.db`). The
   * service's spare copy, one it served before, is brought forward by the deltas it lacks when it
   * began from the same base; else the pristine copy is (fetching the base when it began from
   * another) and copied. Either way only deltas not fetched before are. Answers the bytes fetched.
   * One assembly per service at a time.
   */
  assemble(serviceId: number, manifest: GenerationManifest, target: string): Promise<number> {
    return this.turns.run(serviceId, () => this.assembleNow(serviceId, manifest, target));
  }

  /**
   * Keeps a copy this node served and has closed as the service's spare (in place of the one
   * before), or removes it when it cannot be one: it holds no record of what it holds, SQLite's
   * log is still beside it (a process that stopped while serving it), or it began from an older
   * base than the spare there.
   */
  retire(serviceId: number, file: string): Promise<void> {
    return this.turns.run(serviceId, async () => {
      const folder = this.folderOf(serviceId);
      const spare = path.join(folder, SPARE);
      const state = await readState(stateFileOf(file));
      const newestBase = (await readState(stateFileOf(path.join(folder, PRISTINE))))?.base;
      if (
        state === undefined ||
        (await fileExists(`${file}-wal`)) ||
        (state.base !== newestBase && (await readState(stateFileOf(spare)))?.base === newestBase)
      ) {
        await rm(stateFileOf(file), { force: true });
        await removeCopy(file);
        return;
      }
      // The spare's record goes first: a copy without one is never taken.
      await rm(stateFileOf(spare), { force: true });
      await removeCopy(spare);
      await rm(`${file}-shm`, { force: true });
      await rename(file, spare);
      await rename(stateFileOf(file), stateFileOf(spare));
    });
  }

  /** Whether a file of a service's folder is one a node keeps across restarts. */
  static keepsAcrossRestarts(name: string): boolean {
    return KEPT_NAMES.has(name);
  }

  private folderOf(serviceId: number): string {
    return path.join(this.root, String(serviceId));
  }

  private async assembleNow(
    serviceId: number,
    manifest: GenerationManifest,
    target: string,
  ): Promise<number> {
    const folder = this.folderOf(serviceId);
    await mkdir(path.join(folder, DELTAS), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const fetched = { bytes: 0 };
    const part = partOf(target);
    try {
      const spare = path.join(folder, SPARE);
      const spareState = await readState(stateFileOf(spare));
      let state: CopyState;
      if (spareState !== undefined && continues(spareState, manifest) && (await fileExists(spare))) {
        await rm(stateFileOf(spare), { force: true });
        await rename(spare, part);
        state = spareState;
        try {
          await this.bringForward(serviceId, part, state, manifest, fetched);
        } catch (error) {
          // Kept for the next try, with the deltas it took in meanwhile.
          await rename(part, spare);
          await writeState(stateFileOf(spare), state);
          throw error;
        }
      } else {
        const pristine = await this.pristineOf(serviceId, manifest, fetched);
        state = pristine.state;
        await copyFile(pristine.file, part);
      }
      await rename(part, target);
      await writeState(stateFileOf(target), state);
    } catch (error) {
      await removeCopy(part);
      throw error;
    }
    await this.forgetDeltasNotIn(folder, manifest);
    if (this.keepSpares)
      void this.turns.run(serviceId, () => this.spareFromPristine(serviceId)).catch(() => undefined);
    return fetched.bytes;
  }

  /**
   * Copies the pristine copy as the spare when there is none of its base, after a generation was
   * taken in and off its way: the next generation is then made by applying its deltas alone. A
   * copy the node retires later takes the spare's place.
   */
  private async spareFromPristine(serviceId: number): Promise<void> {
    const folder = this.folderOf(serviceId);
    const spare = path.join(folder, SPARE);
    const pristine = path.join(folder, PRISTINE);
    const state = await readState(stateFileOf(pristine));
    if (state === undefined || (await readState(stateFileOf(spare)))?.base === state.base) return;
    if (await fileExists(`${pristine}-wal`)) settleIndexFile(pristine);
    const part = partOf(spare);
    try {
      await removeCopy(spare);
      await copyFile(pristine, part);
      await rename(part, spare);
      await writeState(stateFileOf(spare), state);
    } catch (error) {
      await removeCopy(part);
      throw error;
    }
  }

  /** The service's pristine copy brought to `manifest`: its base fetched when it began from another. */
  private async pristineOf(
    serviceId: number,
    manifest: GenerationManifest,
    fetched: { bytes: number },
  ): Promise<{ file: string; state: CopyState }> {
    const file = path.join(this.folderOf(serviceId), PRISTINE);
    const stateFile = stateFileOf(file);
    let state = await readState(stateFile);
    if (state === undefined || !continues(state, manifest) || !(await fileExists(file))) {
      await rm(stateFile, { force: true });
      await removeCopy(file);
      const part = partOf(file);
      fetched.bytes += await this.fetch(serviceId, manifest.base, part);
      await rename(part, file);
      state = { base: manifest.base.name, deltas: [] };
      await writeState(stateFile, state);
    }
    await this.bringForward(serviceId, file, state, manifest, fetched, stateFile);
    // Copied as a file: nothing of it may still be in SQLite's log.
    if (await fileExists(`${file}-wal`)) settleIndexFile(file);
    return { file, state };
  }

  /**
   * Applies to `file` the deltas of `manifest` it lacks, each in one transaction, saying so in
   * `stateFile` after each. A process stopped between the two finds the delta applied and not
   * said; applying it again gives the same rows.
   */
  private async bringForward(
    serviceId: number,
    file: string,
    state: CopyState,
    manifest: GenerationManifest,
    fetched: { bytes: number },
    stateFile?: string,
  ): Promise<void> {
    for (const delta of manifest.deltas.slice(state.deltas.length)) {
      await applyDeltaOffThread(file, await this.localDelta(serviceId, delta, fetched));
      state.deltas.push(delta.name);
      if (stateFile !== undefined) await writeState(stateFile, state);
    }
  }

  /** A delta as a local file, fetched unless fetched before. */
  private async localDelta(
    serviceId: number,
    delta: GenerationObject,
    fetched: { bytes: number },
  ): Promise<string> {
    const file = path.join(this.folderOf(serviceId), DELTAS, delta.name);
    if (await fileExists(file)) return file;
    const part = partOf(file);
    fetched.bytes += await this.fetch(serviceId, delta, part);
    await rename(part, file);
    return file;
  }

  /** Removes the local deltas the newest manifest does not name (their base is gone). */
  private async forgetDeltasNotIn(folder: string, manifest: GenerationManifest): Promise<void> {
    const named = new Set(manifest.deltas.map((delta) => delta.name));
    const local = await readdir(path.join(folder, DELTAS)).catch(() => []);
    await Promise.all(
      local
        .filter((name) => !named.has(name))
        .map((name) => rm(path.join(folder, DELTAS, name), { force: true })),
    );
  }

  /** Downloads an object to `file`, checking its bytes against its name. */
  private async fetch(serviceId: number, object: GenerationObject, file: string): Promise<number> {
    const body = await this.files.open(serviceId, object.name);
    if (body === undefined)
      throw new Error(`the object ${object.name} of search service ${serviceId} is missing from storage`);
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      await pipeline(
        body,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            bytes += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(file, { mode: 0o600 }),
      );
      const digest = hash.digest('hex');
      if (!object.name.startsWith(digest))
        throw new Error(
          `the object ${object.name} of search service ${serviceId} does not hold what its name says`,
        );
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return bytes;
  }
}

/**
 * The objects of a service no live manifest names and written more than `graceMs` ago. Live:
 * the current generation's manifest and every manifest younger than the grace (a generation a
 * node may still be fetching, or one being published).
 */
export async function unnamedObjects(
  listed: readonly GroupFile[],
  currentManifest: string,
  graceMs: number,
  nowMs: number,
  manifestOf: (name: string) => Promise<GenerationManifest | undefined>,
): Promise<string[]> {
  const young = (file: GroupFile) => nowMs - file.modifiedMs < graceMs;
  const live = new Set<string>();
  for (const file of listed) {
    if (!isManifestName(file.name) || (file.name !== currentManifest && !young(file))) continue;
    const manifest = await manifestOf(file.name);
    if (manifest !== undefined) for (const name of objectsNamedBy(file.name, manifest)) live.add(name);
    else live.add(file.name);
  }
  return listed
    .filter((file) => OBJECT_NAME.test(file.name) && !live.has(file.name) && !young(file))
    .map((file) => file.name);
}

export function parseManifest(text: string, name: string): GenerationManifest {
  const fail = (why: string): never => {
    throw new Error(`the manifest ${name}: ${why}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('not JSON');
  }
  const manifest = value as Partial<GenerationManifest>;
  if (manifest.format !== MANIFEST_FORMAT)
    fail(`format ${String(manifest.format)}, expected ${MANIFEST_FORMAT}`);
  if (typeof manifest.schema !== 'string') fail('no schema digest');
  const objectOf = (object: unknown, kind: string): GenerationObject => {
    const { name: objectName, bytes, documents } = (object ?? {}) as Partial<GenerationObject>;
    if (typeof objectName !== 'string' || !objectName.endsWith(`.${kind}`) || !OBJECT_NAME.test(objectName))
      fail(`a ${kind} object without a content name`);
    const count = (value: unknown, what: string): number =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? value
        : fail(`${String(objectName)}: no count of ${what}`);
    return { name: objectName!, bytes: count(bytes, 'bytes'), documents: count(documents, 'documents') };
  };
  if (!Array.isArray(manifest.deltas)) fail('no list of deltas');
  return {
    format: MANIFEST_FORMAT,
    schema: manifest.schema!,
    base: objectOf(manifest.base, 'db'),
    deltas: manifest.deltas!.map((delta) => objectOf(delta, 'delta')),
  };
}

async function sha256Of(body: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of body as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

const partOf = (file: string): string => `${file}.${randomBytes(4).toString('hex')}.part`;

/** Where the record of what a local copy holds is kept: `<name>.json` beside `<name>.db`. */
function stateFileOf(file: string): string {
  return `${file.replace(/\.db$/, '')}.json`;
}

/** Whether a copy holding `state` can be brought to `manifest` by deltas alone. */
function continues(state: CopyState, manifest: GenerationManifest): boolean {
  return (
    state.base === manifest.base.name &&
    state.deltas.length <= manifest.deltas.length &&
    state.deltas.every((name, n) => manifest.deltas[n]?.name === name)
  );
}

/** Removes a local copy with SQLite's side files. */
export async function removeCopy(file: string): Promise<void> {
  await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
}

async function readState(file: string): Promise<CopyState | undefined> {
  try {
    const state = JSON.parse(await readFile(file, 'utf8')) as CopyState;
    return typeof state.base === 'string' && Array.isArray(state.deltas) ? state : undefined;
  } catch {
    return undefined;
  }
}

async function writeState(file: string, state: CopyState): Promise<void> {
  const part = partOf(file);
  await writeFile(part, JSON.stringify(state), { mode: 0o600 });
  await rename(part, file);
}
