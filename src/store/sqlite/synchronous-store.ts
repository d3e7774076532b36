/**
 * SQLite answers at once (better-sqlite3 is synchronous), while the store interfaces are
 * asynchronous so that a networked database (PostgreSQL) can implement them too. Each SQLite
 * store implements the synchronous shape of its interface, and `asAsync` presents it as the
 * interface. The call still runs at once: the statement has run when `asAsync`'s method returns
 * its promise, so the embedded mode keeps its ordering and its speed.
 */

/** The synchronous shape of an asynchronous store interface. */
export type Synchronous<T> = { [K in keyof T]: SynchronousMethod<T[K]> };

/** Distributes over `undefined`, so an optional method keeps its synchronous shape. */
type SynchronousMethod<F> = F extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : F;

/** The asynchronous interface of a synchronous store: each method answers a settled promise. */
export function asAsync<T extends object>(store: Synchronous<T>): T {
  const wrapped: Record<string, unknown> = {};
  for (const name of methodNames(store)) {
    const method = (store as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(method.apply(store, args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return wrapped as T;
}

/** Public methods of an instance: its own function properties and those of its classes. */
function methodNames(store: object): Set<string> {
  const names = new Set<string>();
  for (
    let level: object | null = store;
    level && level !== Object.prototype;
    level = Object.getPrototypeOf(level)
  ) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name === 'constructor') continue;
      if (typeof (store as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return names;
}
