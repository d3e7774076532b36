import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { FileGroupStore } from '../../blob/index.js';
import { searchIndexFile } from '../../config/index.js';
import type { SearchIndex } from '../search-index.js';
import { type SearchGenerationStore, WriterLeaseLostError } from '../../store/index.js';
import { type Clock, sleep, PRIVATE_FOLDER_MODE } from '../../util/index.js';
import { withoutRecordedChanges } from '../storage/generation-delta.js';
import { writeDeltaOffThread } from './delta-thread.js';
import {
  type GenerationManifest,
  GenerationObjects,
  isManifestName,
  unnamedObjects,
} from './generation-objects.js';

/** How long a writer lease lasts unrenewed; renewed every third of it while the writer works. */
const WRITER_LEASE_MS = 60_000;
/** How often a process waiting for another's writer lease asks again. */
const WRITER_RETRY_MS = 500;
/** Generations kept, the newest included: the older ones for nodes still fetching or serving them. */
export const GENERATIONS_KEPT = 3;
/**
 * A new base is published once the deltas of a generation would pass this share of their base's
 * bytes or documents: a node starting afresh then fetches the base alone instead of it and ever
 * more deltas.
 */
const DELTAS_OF_BASE = 0.25;
/** How long an object no live manifest names is kept: a node may still be fetching it. */
const OBJECT_GRACE_MS = 15 * 60_000;

export interface IndexWriterDeps {
  generations: SearchGenerationStore;
  /** Where generations are published (folder `indexes`). */
  files: FileGroupStore;
  /** This process, as its run leases name it. */
  owner: string;
  /** The data directory: the working copies are its search indexes. */
  dataDir: string;
  /** A folder on the same file system as the search nodes' cache, for snapshots and downloads. */
  scratch: string;
  clock: Clock;
  /** Told while the lease is held by another process, once per wait. */
  onWaiting?: (serviceId: number) => void;
}

/**
 * A generation this process published: its number and, when published as a new base, the local
 * copy of its file uploaded (for this node to serve at once; a delta is taken in as other nodes
 * take it).
 */
export interface PublishedGeneration {
  generation: number;
  file?: string;
}

/**
 * The writing side of search nodes (docs/design/scale-out.md, Search nodes): a process feeding runs
 * into a search service holds the service's writer lease, brings its working copy of the index up
 * to the newest published generation (another process may have written it last), applies the run,
 * and publishes the result as a new immutable generation.
 */
export class SearchIndexWriter {
  private readonly working = new Map<number, SearchIndex>();
  private readonly objects: GenerationObjects;

  constructor(private readonly deps: IndexWriterDeps) {
    // Its own pristine copies: a writer catching up with another's generation fetches only what it lacks.
    this.objects = new GenerationObjects(deps.files, path.join(deps.scratch, 'objects'));
  }

  /**
   * Runs `work` on the service's up-to-date working index under its writer lease, then publishes
   * it. `served` is the index this process serves and writes in place (the sole server of a
   * database); without it the writer keeps working copies of its own.
   */
  async write<T>(
    serviceId: number,
    work: (index: SearchIndex) => Promise<T>,
    served?: SearchIndex,
  ): Promise<{ result: T; published: PublishedGeneration }> {
    await this.takeLease(serviceId);
    // A renewal that fails or finds the lease taken ends the write: the lease lapsed meanwhile,
    // so another process may have written, and a renewal must not take the lease back.
    let lost = false;
    let renewal: Promise<void> = Promise.resolve();
    const renewer = setInterval(() => {
      renewal = renewal.then(async () => {
        if (lost) return;
        lost = !(await this.deps.generations
          .takeWriter(serviceId, this.deps.owner, WRITER_LEASE_MS)
          .catch(() => false));
      });
    }, WRITER_LEASE_MS / 3);
    try {
      const index =
        served === undefined ? await this.upToDate(serviceId) : await this.checkedServed(serviceId, served);
      const basedOn = index.store.publishedGeneration();
      const result = await work(index);
      await renewal;
      if (lost)
        throw new WriterLeaseLostError(
          `the writer lease of search service ${serviceId} lapsed while it was written`,
        );
      const published = await this.publish(serviceId, index, basedOn);
      return { result, published };
    } finally {
      clearInterval(renewer);
      // No renewal may reach the database after the release and take the lease again.
      await renewal;
      await this.deps.generations.releaseWriter(serviceId, this.deps.owner).catch(() => undefined);
    }
  }

  close(): void {
    for (const index of this.working.values()) index.close();
    this.working.clear();
  }

  private async takeLease(serviceId: number): Promise<void> {
    let told = false;
    while (!(await this.deps.generations.takeWriter(serviceId, this.deps.owner, WRITER_LEASE_MS))) {
      if (!told) this.deps.onWaiting?.(serviceId);
      told = true;
      await sleep(WRITER_RETRY_MS);
    }
  }

  /**
   * The index served here, which no other process publishes from while this one holds the database
   * alone (`kumo index` on its data directory writes the same file and publishes nothing). One
   * behind the newest generation is refused rather than published over it.
   */
  private async checkedServed(serviceId: number, served: SearchIndex): Promise<SearchIndex> {
    const current = await this.deps.generations.current(serviceId);
    if (current !== undefined && current.generation > served.store.publishedGeneration())
      throw new Error(
        `the index of search service ${serviceId} here is older than generation ${current.generation} ` +
          'published by another process: restart kumo serve to take it in',
      );
    return served;
  }

  /** The working copy, replaced by the newest generation when another process published after it. */
  private async upToDate(serviceId: number): Promise<SearchIndex> {
    // The engine is imported with the first write, not when the writer is built at start.
    const { SearchIndex } = await import('../search-index.js');
    const file = searchIndexFile(this.deps.dataDir, serviceId);
    let index = this.working.get(serviceId);
    if (index === undefined) {
      await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      index = new SearchIndex(file);
      this.working.set(serviceId, index);
    }
    const current = await this.deps.generations.current(serviceId);
    if (current === undefined || current.generation <= index.store.publishedGeneration()) return index;
    const incoming = await this.download(serviceId, current.name);
    index.close();
    this.working.delete(serviceId);
    await Promise.all(['-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
    await rename(incoming, file);
    index = new SearchIndex(file);
    // The copy is the generation exactly: what changes from here is the next delta.
    if (isManifestName(current.name)) index.store.recordChanges();
    index.store.setPublishedGeneration(current.generation);
    this.working.set(serviceId, index);
    return index;
  }

  /** A published generation as a local file: assembled from its objects, or a whole file as published before. */
  private async download(serviceId: number, name: string): Promise<string> {
    const file = await this.scratchFile(serviceId);
    if (isManifestName(name)) {
      await this.objects.assemble(serviceId, await this.objects.manifest(serviceId, name), file);
      return file;
    }
    const body = await this.deps.files.open(serviceId, name);
    if (body === undefined)
      throw new Error(`the published index of search service ${serviceId} (${name}) is missing from storage`);
    try {
      await pipeline(body, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return file;
  }

  /**
   * Publishes the working copy as the next generation (docs/design/scale-out.md, Generations as
   * objects): as a delta of the changes recorded since the last publication when the generation
   * it was written from is a manifest of the same schema and its deltas stay small beside its
   * base, else as a new base. The objects go before the manifest and the manifest before the
   * record, so no recorded generation names a missing object. Only a new base is a whole copy of
   * the file, answered as this node's copy of the new generation.
   */
  private async publish(
    serviceId: number,
    index: SearchIndex,
    basedOn: number,
  ): Promise<PublishedGeneration> {
    const previous = await this.manifestOf(serviceId, basedOn);
    const complete = index.store.recordChanges();
    let file: string | undefined;
    let generation: number;
    try {
      let manifest =
        previous !== undefined && complete && previous.schema === index.store.schemaDigest()
          ? await this.withDelta(serviceId, index, previous)
          : undefined;
      if (manifest === undefined) {
        index.store.markChangesPublishing();
        file = await this.scratchFile(serviceId);
        await index.store.backupTo(file);
        withoutRecordedChanges(file);
        manifest = {
          format: 1,
          schema: index.store.schemaDigest(),
          base: await this.objects.save(serviceId, file, 'db', index.documentCount),
          deltas: [],
        };
      }
      const name = await this.objects.saveManifest(serviceId, manifest, this.deps.scratch);
      const bytes = manifest.base.bytes + manifest.deltas.reduce((sum, delta) => sum + delta.bytes, 0);
      generation = await this.deps.generations.publish(
        serviceId,
        this.deps.owner,
        { name, bytes, documents: index.documentCount },
        basedOn,
        this.deps.clock.nowMicros(),
      );
      // Only once recorded: a publication that failed leaves its changes for the next one.
      index.store.forgetPublishedChanges();
      await this.tidy(serviceId, name);
    } catch (error) {
      // The objects stay: another manifest may name them, and unnamed ones go with the garbage.
      if (file !== undefined) await rm(file, { force: true });
      throw error;
    }
    index.store.setPublishedGeneration(generation);
    return file === undefined ? { generation } : { generation, file };
  }

  /** The manifest of generation `basedOn` when it is the newest and was published as objects. */
  private async manifestOf(serviceId: number, basedOn: number): Promise<GenerationManifest | undefined> {
    const current = await this.deps.generations.current(serviceId);
    if (current === undefined || current.generation !== basedOn || !isManifestName(current.name))
      return undefined;
    return this.objects.manifest(serviceId, current.name);
  }

  /**
   * `previous` with this publication's delta added, or undefined when the deltas since its base
   * would pass a quarter of its bytes or change a quarter of its documents.
   */
  private async withDelta(
    serviceId: number,
    index: SearchIndex,
    previous: GenerationManifest,
  ): Promise<GenerationManifest | undefined> {
    const file = await this.scratchFile(serviceId);
    try {
      // Off this thread: a search served here meanwhile is not held up.
      const { bytes, documents } = await writeDeltaOffThread(index.store.file, file);
      const since = (part: 'bytes' | 'documents') =>
        previous.deltas.reduce((sum, delta) => sum + delta[part], 0);
      if (since('bytes') + bytes > previous.base.bytes * DELTAS_OF_BASE) return undefined;
      const base = Math.max(previous.base.documents, index.documentCount);
      if (since('documents') + documents > base * DELTAS_OF_BASE) return undefined;
      const delta = await this.objects.save(serviceId, file, 'delta', documents);
      return { ...previous, deltas: [...previous.deltas, delta] };
    } finally {
      await rm(file, { force: true });
    }
  }

  /**
   * Forgets all but the newest generations and removes the objects no live manifest names (one
   * process at a time: the writer lease is held). Failing here fails no run: the next one tries.
   */
  private async tidy(serviceId: number, current: string): Promise<void> {
    try {
      const forgotten = await this.deps.generations.prune(serviceId, GENERATIONS_KEPT);
      // A node still serving a forgotten generation keeps its own copy.
      await Promise.all(
        forgotten.map((old) => this.deps.files.remove(serviceId, old.name).catch(() => undefined)),
      );
      const unnamed = await unnamedObjects(
        await this.deps.files.list(serviceId),
        current,
        OBJECT_GRACE_MS,
        this.deps.clock.nowMicros() / 1000,
        (name) => this.objects.manifest(serviceId, name).catch(() => undefined),
      );
      await Promise.all(
        unnamed.map((name) => this.deps.files.remove(serviceId, name).catch(() => undefined)),
      );
    } catch {
      // Left for the next publication's tidying.
    }
  }

  private async scratchFile(serviceId: number): Promise<string> {
    await mkdir(this.deps.scratch, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return path.join(this.deps.scratch, `${serviceId}-${randomBytes(6).toString('hex')}.db`);
  }
}
