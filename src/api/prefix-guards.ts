import type { FastifyRequest } from 'fastify';

/** A credential check that throws the 401 (or 403) ApiError. */
export type RequestGuard = (request: FastifyRequest) => Promise<void>;

/**
 * The credential check of each API prefix, for answers that no route of the prefix gives: an
 * unknown path (404) or method (405) under an authenticated prefix asks for credentials first, so
 * a caller without them learns nothing about which paths exist (docs/reference/conventions.md,
 * Status codes). Prefixes without credentials (site search, the scheduled crawler) are listed
 * with no guard, so a longer public prefix inside an authenticated one stays public.
 */
export class PrefixGuards {
  private readonly entries: readonly { prefix: string; guard: RequestGuard | undefined }[];

  constructor(entries: readonly { prefix: string; guard: RequestGuard | undefined }[]) {
    // Longest first: the most specific prefix a path is under decides.
    this.entries = [...entries].sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The guard of the most specific prefix `path` (without query) lies under, on a segment boundary. */
  guardOf(path: string): RequestGuard | undefined {
    const entry = this.entries.find(({ prefix }) => isUnder(path, prefix));
    return entry?.guard;
  }
}

function isUnder(path: string, prefix: string): boolean {
  const base = prefix.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`);
}
