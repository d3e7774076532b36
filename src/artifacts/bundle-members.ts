import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import { encodeTarFiles, type TarFile } from './tar-entries.js';

const gzipAsync = promisify(gzip);
/** Level of the per-page gzip members of the bundle: most of the size gain of 6 at a third of the CPU. */
const BUNDLE_GZIP_LEVEL = 3;
/** Already-compressed data (JPEG) is stored: deflating it costs CPU and gains nothing. */
const STORED_LEVEL = 0;

interface MemberGroup {
  tar: Buffer;
  level: number;
}

/**
 * A page's bundle files as gzip members that decompress, concatenated, to their tar entries in
 * order. Runs of compressible files share one member; already-compressed files get a stored one.
 * Compression runs on libuv's thread pool, off the calling thread.
 */
export async function bundleMembersOf(files: readonly TarFile[]): Promise<Buffer[]> {
  return Promise.all(memberGroupsOf(files).map((group) => gzipAsync(group.tar, { level: group.level })));
}

/** bundleMembersOf on the calling thread, for a thread whose whole job is preparing pages. */
export function bundleMembersSync(files: readonly TarFile[]): Buffer[] {
  return memberGroupsOf(files).map((group) => gzipSync(group.tar, { level: group.level }));
}

function memberGroupsOf(files: readonly TarFile[]): MemberGroup[] {
  const groups: { files: TarFile[]; stored: boolean }[] = [];
  for (const file of files) {
    const stored = file.compressed === true;
    const last = groups[groups.length - 1];
    if (last !== undefined && last.stored === stored) last.files.push(file);
    else groups.push({ files: [file], stored });
  }
  return groups.map((group) => ({
    tar: encodeTarFiles(group.files),
    level: group.stored ? STORED_LEVEL : BUNDLE_GZIP_LEVEL,
  }));
}
