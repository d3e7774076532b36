/**
 * Reading one page's gzip member of the previous run's bundle (docs/reference/crawl-rules.md,
 * Conditional re-crawls) wherever the bundle is kept: PreviousAnswers knows only offsets and
 * lengths from the report, a reader knows the storage.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';

/** Reads members of one bundle; `read` never throws for a missing or short part, it says undefined. */
export interface MemberReader {
  /** `bytes` bytes from `offset`, or undefined when they cannot be read (the page is then fetched whole). */
  read(offset: number, bytes: number): Promise<Buffer | undefined>;
  /** Frees what the reader holds; reads after it give undefined. */
  close(): void;
}

/** A bundle in the local data directory, read in place; undefined when the file is not there. */
export function localMemberReader(bundleFile: string): MemberReader | undefined {
  if (!existsSync(bundleFile)) return undefined;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(bundleFile, 'r');
  } catch {
    // Removed by retention since, or not readable: the run fetches every page whole.
    return undefined;
  }
  return {
    read(offset, bytes) {
      if (descriptor === undefined) return Promise.resolve(undefined);
      const part = Buffer.alloc(bytes);
      try {
        return Promise.resolve(readSync(descriptor, part, 0, bytes, offset) === bytes ? part : undefined);
      } catch {
        return Promise.resolve(undefined);
      }
    },
    close() {
      if (descriptor !== undefined) closeSync(descriptor);
      descriptor = undefined;
    },
  };
}
