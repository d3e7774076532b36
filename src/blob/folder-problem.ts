import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';

/**
 * Why a folder cannot hold artifacts, or undefined when it can: it exists, is a folder, and the
 * process may list, read and write it. Says nothing of the path (the health check is public).
 */
export async function folderProblem(folder: string): Promise<string | undefined> {
  try {
    const info = await stat(folder);
    if (!info.isDirectory()) return 'the artifact folder is not a folder';
  } catch (error) {
    return `the artifact folder cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  try {
    await access(folder, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    return `the artifact folder is not readable and writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  return undefined;
}
