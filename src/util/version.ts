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

/**
 * The User-Agent of fetches whose setting gives none, and of webhook deliveries: `KumoBot/<version>`,
 * with `(+<KUMO_BOT_INFO_URL>)` when the operator names a page about the crawler. Never the service's
 * own address, which every crawled site would otherwise learn (docs/operations.md, Settings).
 */
export function defaultUserAgent(botInfoUrl: string | undefined): string {
  return botInfoUrl === undefined ? `KumoBot/${KUMO_VERSION}` : `KumoBot/${KUMO_VERSION} (+${botInfoUrl})`;
}
