import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileGroupStore, GroupFile } from '../../blob/index.js';
import { applyGenerationDeltaToFile } from '../storage/generation-delta.js';
import { PRIVATE_FOLDER_MODE, fileExists } from '../../util/index.js';

/**
 * Generations as objects (docs/design/scale-out.md, Generations as objects): a published
 * generation is a manifest naming a base (a whole snapshot of the index file) and the deltas
 * applied to it since, each an immutable object named by the SHA-256 of its bytes. A writer
 * uploads only the objects the store lacks; a node keeps a pristine copy of what it fetched last
 * (never served, so nothing it writes while serving is carried on) and fetches only the deltas
 * it lacks.
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

/** What a node's pristine copy holds: the base it began from and the deltas applied since, in order. */
interface PristineState {
  base: string;
  deltas: string[];
}

export class GenerationObjects {
  private readonly turns = new Map<number, Promise<unknown>>();

  constructor(
    private readonly files: FileGroupStore,
    /** Where pristine copies are kept (`<root>/<service id>/pristine.db`). */
    private readonly root: string,
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
   * Writes the generation of `manifest` to `target`: the service's pristine copy is brought to it
   * (fetching the base when it began from another, then only the deltas it lacks) and copied.
   * Answers the bytes fetched. One assembly per service at a time.
   */
  assemble(serviceId: number, manifest: GenerationManifest, target: string): Promise<number> {
    const previous = this.turns.get(serviceId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.assembleNow(serviceId, manifest, target));
    this.turns.set(serviceId, next);
    void next
      .finally(() => {
        if (this.turns.get(serviceId) === next) this.turns.delete(serviceId);
      })
      .catch(() => undefined);
    return next;
  }

  private async assembleNow(
    serviceId: number,
    manifest: GenerationManifest,
    target: string,
  ): Promise<number> {
    const folder = path.join(this.root, String(serviceId));
    await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const pristine = path.join(folder, 'pristine.db');
    const stateFile = path.join(folder, 'pristine.json');
    let state = await readState(stateFile);
    let fetched = 0;
    const continues =
      state !== undefined &&
      state.base === manifest.base.name &&
      state.deltas.length <= manifest.deltas.length &&
      state.deltas.every((name, n) => manifest.deltas[n]?.name === name) &&
      (await fileExists(pristine));
    if (!continues) {
      await rm(stateFile, { force: true });
      await removeIndexFile(pristine);
      const part = partOf(pristine);
      fetched += await this.fetch(serviceId, manifest.base, part);
      await rename(part, pristine);
      state = { base: manifest.base.name, deltas: [] };
      await writeState(stateFile, state);
    }
    const applied = state!;
    for (const delta of manifest.deltas.slice(applied.deltas.length)) {
      const file = partOf(path.join(folder, delta.name));
      try {
        fetched += await this.fetch(serviceId, delta, file);
        // One transaction: a process stopped here finds the copy as before, or with the delta
        // in and its state not yet written, and applying a delta twice gives the same rows.
        applyGenerationDeltaToFile(pristine, file);
      } finally {
        await rm(file, { force: true });
      }
      applied.deltas.push(delta.name);
      await writeState(stateFile, applied);
    }
    const part = partOf(target);
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    try {
      await copyFile(pristine, part);
      await rename(part, target);
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
    return fetched;
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

async function removeIndexFile(file: string): Promise<void> {
  await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
}

async function readState(file: string): Promise<PristineState | undefined> {
  try {
    const state = JSON.parse(await readFile(file, 'utf8')) as PristineState;
    return typeof state.base === 'string' && Array.isArray(state.deltas) ? state : undefined;
  } catch {
    return undefined;
  }
}

async function writeState(file: string, state: PristineState): Promise<void> {
  const part = partOf(file);
  await writeFile(part, JSON.stringify(state), { mode: 0o600 });
  await rename(part, file);
}
