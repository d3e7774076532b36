import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package (or the CommonJS build of one) loaded the first time it is asked for, for
 * packages that synchronous code needs only on paths an idle service never takes: imported at
 * start they would hold MB of code and data for nothing (docs/operations.md, Memory). `T` is the package's
 * type, from a type-only import. Every caller of one package must load it this way, or the
 * process would hold its ES module build as well.
 */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
