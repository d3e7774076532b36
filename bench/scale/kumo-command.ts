/**
 * `kumo` as `npx kumo` starts it: this Node.js running the built CLI, with the environment the
 * CLI's first line gives (docs/operations.md, Memory). Started through that line instead, the
 * bench would run whichever `node` comes first on PATH.
 */
import { fileURLToPath } from 'node:url';

export const KUMO = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** The environment of a `kumo` process: this one's, the CLI's own settings, then `extra`. */
export function kumoEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, MALLOC_ARENA_MAX: '2', ...extra };
}
