import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder of an installed Debian package that holds `marker` (a file name), found through
 * `dpkg -L` so the version in the path (python3.11, python3.13, ...) need not be guessed.
 * Undefined when dpkg, the package or the file is missing.
 */
export function packageFolderOf(pkg: string, marker: string): string | undefined {
  let listing: string;
  try {
    listing = execFileSync('dpkg', ['-L', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
  for (const line of listing.split('\n')) {
    const candidate = path.join(line.trim(), marker);
    try {
      // Packages such as python3-doc list a symlink to the versioned folder; follow it.
      return path.dirname(realpathSync(candidate));
    } catch {
      continue;
    }
  }
  return undefined;
}

/** The installed version of a Debian package (`15.20-0+deb12u1`), or 'unknown'. */
export function packageVersionOf(pkg: string): string {
  try {
    const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return version === '' ? 'unknown' : version;
  } catch {
    return 'unknown';
  }
}
