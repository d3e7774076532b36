import diagnosticsChannel from 'node:diagnostics_channel';

/** What undici publishes on `undici:client:sendHeaders`, as far as it is read here. */
interface SendHeadersMessage {
  request: { origin?: unknown; path?: unknown };
}

/** Callbacks waiting for the headers of a request to a URL (origin + path) to be written. */
const waiting = new Map<string, (() => void)[]>();
let subscribed = false;

function onSendHeaders(message: unknown): void {
  const { request } = message as SendHeadersMessage;
  let key: string;
  try {
    key = new URL(String(request.path), String(request.origin)).href;
  } catch {
    return;
  }
  const callbacks = waiting.get(key);
  const callback = callbacks?.shift();
  if (callbacks?.length === 0) waiting.delete(key);
  callback?.();
}

/**
 * Calls `callback` when undici writes the headers of the next request to `url` in this thread:
 * the moment the request really leaves, after the connection is made (docs/reference/
 * crawl-rules.md, Pacing). Returns a function that forgets the callback if it has not run.
 */
export function whenRequestSent(url: string, callback: () => void): () => void {
  if (!subscribed) {
    diagnosticsChannel.subscribe('undici:client:sendHeaders', onSendHeaders);
    subscribed = true;
  }
  let key: string;
  try {
    const parsed = new URL(url);
    key = new URL(parsed.pathname + parsed.search, parsed.origin).href;
  } catch {
    return () => undefined;
  }
  const callbacks = waiting.get(key) ?? [];
  callbacks.push(callback);
  waiting.set(key, callbacks);
  return () => {
    const index = callbacks.indexOf(callback);
    if (index < 0) return;
    callbacks.splice(index, 1);
    if (callbacks.length === 0 && waiting.get(key) === callbacks) waiting.delete(key);
  };
}
