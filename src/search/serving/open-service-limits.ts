/**
 * When a process closes the search services it opened (docs/design/search-engine.md, Many
 * services on one node): a node serves many services, most of them idle at any moment, and each
 * open one holds its index's connection and files and what its searches keep in memory.
 */
export interface OpenServiceLimits {
  /** Services open at once: opening one more first closes the least recently used idle one. */
  maxOpen: number;
  /** A service unused this long is closed; its next use opens it again. */
  idleMs: number;
}

/**
 * A service a management call read (its status, analytics, an export) stays open this long: the
 * call may still be reading what it was handed, over several awaits.
 */
export const MANAGEMENT_USE_MS = 30_000;

/** What the choice needs to know of an open service. */
export interface ServiceInUse {
  /** When it was last asked for (performance.now()). */
  lastUsedMs: number;
  /**
   * A search or feed under way, a caller between its lookup and its use, or a management call in
   * the last MANAGEMENT_USE_MS: it cannot be closed now.
   */
  busy: boolean;
}

/**
 * The services to close now, least recently used first: every one idle for `idleMs`, and while
 * more than `maxOpen - room` stay open, the least recently used. A busy service is never chosen,
 * so while more than `maxOpen` are busy at once, more stay open.
 */
export function servicesToClose<Key>(
  open: ReadonlyMap<Key, ServiceInUse>,
  limits: OpenServiceLimits,
  nowMs: number,
  room = 0,
): Key[] {
  const closable = [...open]
    .filter(([, service]) => !service.busy)
    .sort(([, a], [, b]) => a.lastUsedMs - b.lastUsedMs);
  const chosen: Key[] = [];
  let staying = open.size;
  for (const [key, service] of closable) {
    if (nowMs - service.lastUsedMs < limits.idleMs && staying <= limits.maxOpen - room) break;
    chosen.push(key);
    staying -= 1;
  }
  return chosen;
}
