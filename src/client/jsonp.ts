import { SiteSearchError } from './site-search-error.js';

/**
 * JSONP calls (docs/reference/widget.md, Transports): a script element whose answer calls a
 * function of the one global namespace, `KumoSearch.jsonp.<name>`, so the page gains no other
 * global. Used when the page cannot read the API with fetch, e.g. a Content-Security-Policy whose
 * connect-src leaves the search host out while its script-src (which loaded the widget) has it.
 */

type Callback = (payload: unknown) => void;
interface Namespace {
  jsonp?: Record<string, Callback>;
}

const TIMEOUT_MS = 10_000;
let sequence = 0;

function registry(): Record<string, Callback> {
  const holder = globalThis as unknown as { KumoSearch?: Namespace };
  const namespace = (holder.KumoSearch ??= {});
  return (namespace.jsonp ??= {});
}

/** Loads `url` with `callback=KumoSearch.jsonp.<name>` appended and resolves with its payload. */
export function jsonpCall(url: string, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SiteSearchError('aborted', 'aborted'));
      return;
    }
    const callbacks = registry();
    const name = `c${Date.now().toString(36)}${(sequence++).toString(36)}`;
    const script = document.createElement('script');
    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      script.remove();
      // A late answer of an aborted call still finds a function to call, and does nothing.
      callbacks[name] = () => delete callbacks[name];
    };
    const fail = (error: SiteSearchError) => {
      if (settled) return;
      finish();
      reject(error);
    };
    const onAbort = () => fail(new SiteSearchError('aborted', 'aborted'));
    const timer = setTimeout(
      () => fail(new SiteSearchError('network', 'the search service did not answer')),
      TIMEOUT_MS,
    );
    callbacks[name] = (payload) => {
      if (settled) return;
      finish();
      delete callbacks[name];
      resolve(payload);
    };
    signal?.addEventListener('abort', onAbort);
    // An error status (403, 400) answers no script the browser runs: the call fails as "network".
    script.onerror = () => fail(new SiteSearchError('network', 'the search service could not be reached'));
    script.onload = () => fail(new SiteSearchError('network', 'the search service answered no data'));
    script.async = true;
    script.src = `${url}${url.includes('?') ? '&' : '?'}callback=KumoSearch.jsonp.${name}`;
    (document.head ?? document.documentElement).appendChild(script);
  });
}
