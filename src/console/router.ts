/**
 * The console's addresses (docs/console.md, Addresses): every page has its own path under
 * /console/, so a link can be shared, opened in a new tab and reloaded; the server answers the
 * same page for every such path and this router picks the view. Navigation uses the History API.
 */
import { useEffect, useState } from 'preact/hooks';

export const CONSOLE_BASE = '/console';

/** The path inside the console (`/contracts/1/groups/2/settings`), without the query. */
export function currentPath(): string {
  const path = location.pathname.startsWith(CONSOLE_BASE)
    ? location.pathname.slice(CONSOLE_BASE.length)
    : location.pathname;
  return path === '' ? '/' : path;
}

/** The console address of an inside path: `href('/settings')` → `/console/settings`. */
export function href(path: string): string {
  return `${CONSOLE_BASE}${path}`;
}

const listeners = new Set<() => void>();

/** Goes to an inside path (and its query), adding a history entry unless `replace`. */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = href(path);
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

/** Re-renders on every navigation; answers the inside path and the query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const changed = () => setTick((tick) => tick + 1);
    listeners.add(changed);
    window.addEventListener('popstate', changed);
    return () => {
      listeners.delete(changed);
      window.removeEventListener('popstate', changed);
    };
  }, []);
  return { path: currentPath(), query: new URLSearchParams(location.search) };
}

/** Replaces the query of the current address (filters, paging) without a new history entry. */
export function setQuery(values: Record<string, string | number | null | undefined>): void {
  const query = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === '') query.delete(name);
    else query.set(name, String(value));
  }
  const search = query.toString();
  navigate(`${currentPath()}${search === '' ? '' : `?${search}`}`, { replace: true });
}

/**
 * Matches `/contracts/:contract/groups/:group/runs/:run` against a path; answers the named parts
 * or null. Numeric ids only: a part named `*Id`-like is whatever the pattern says.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index += 1) {
    const part = want[index]!;
    const value = decodeURIComponent(have[index]!);
    if (part.startsWith(':')) params[part.slice(1)] = value;
    else if (part !== value) return null;
  }
  return params;
}

/** Follows in-console links without a page load (a plain click on an <a href="/console/...">). */
export function interceptLinks(): void {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(`${CONSOLE_BASE}/`)) return;
    event.preventDefault();
    navigate(`${url.pathname.slice(CONSOLE_BASE.length)}${url.search}`);
  });
}
