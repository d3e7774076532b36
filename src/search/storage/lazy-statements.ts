/**
 * Statements prepared on first use. A node opens an index file's connection for every search
 * service it serves (docs/design/search-engine.md, Many services on one node), and most of a
 * store's statements serve writes, upgrades or management that a searched service never runs:
 * prepared at open, they cost each open service's connection about 4 KB apiece.
 */
export function lazyStatements<T extends Record<string, () => unknown>>(
  makers: T,
): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const made = new Map<keyof T, unknown>();
  const statements = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const name of Object.keys(makers) as (keyof T)[]) {
    Object.defineProperty(statements, name, {
      enumerable: true,
      get: () => {
        if (!made.has(name)) made.set(name, makers[name]!());
        return made.get(name);
      },
    });
  }
  return statements;
}
