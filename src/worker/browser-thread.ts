/**
 * Entry of the thread that hosts the service's shared Chromium (playwright-core's browser
 * server): the protocol work of every render happens here, not on the thread answering the API
 * (docs/design/crawl.md, Crawl threads).
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import type { BrowserServer } from 'playwright-core';
import type { FromBrowserThread, ToBrowserThread } from './browser-protocol.js';

const port = threadPort();
const send = (message: FromBrowserThread) => port.postMessage(message);
let server: BrowserServer | undefined;

port.on('message', (message: ToBrowserThread) => {
  if (message.type === 'launch') void launch(message);
  else void close();
});

async function launch(message: Extract<ToBrowserThread, { type: 'launch' }>): Promise<void> {
  try {
    // Loaded here only: playwright-core adds tens of megabytes to a thread that never renders.
    const { chromium } = await import('playwright-core');
    server = await chromium.launchServer({
      executablePath: message.executablePath,
      timeout: message.timeoutMs,
      headless: true,
      args: message.args,
      chromiumSandbox: message.sandbox,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      // Loopback only: the endpoint controls the browser.
      host: '127.0.0.1',
      wsPath: message.wsPath,
    });
    server.on('close', () => send({ type: 'closed' }));
    send({ type: 'launched', endpoint: server.wsEndpoint() });
  } catch (error) {
    send({ type: 'launch-failed', message: error instanceof Error ? error.message : String(error) });
  }
}

async function close(): Promise<void> {
  const current = server;
  server = undefined;
  if (current === undefined) send({ type: 'closed' });
  else await current.close().catch(() => send({ type: 'closed' }));
  port.close();
}

function threadPort(): MessagePort {
  if (parentPort === null) throw new Error('browser-thread.js runs as a worker thread only');
  return parentPort;
}
