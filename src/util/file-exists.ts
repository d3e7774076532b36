import { access } from 'node:fs/promises';

/** Whether a file (or folder) exists and can be seen by this process. */
export async function fileExists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
