import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two levels above the compiled file). */
export const KUMO_VERSION: string = (() => {
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (parsed.name === 'kumo' && parsed.version) return parsed.version;
    } catch {
      // try the next candidate
    }
  }
  return '0.0.0';
})();

export function defaultUserAgent(publicUrl: string): string {
  return `KumoBot/${KUMO_VERSION} (+${publicUrl})`;
}
