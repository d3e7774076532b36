/**
 * The webhook endpoints of the bench: one that accepts connections and never answers (an
 * attacker's, holding a delivery slot until the service's timeout) and one that answers 200 at
 * once and notes when each delivery arrived (the victim's).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

export interface WebhookReceiver {
  url: string;
  /** performance.now() of each request received, in order. */
  arrivals: number[];
  close(): Promise<void>;
}

async function listen(server: Server, arrivals: number[]): Promise<WebhookReceiver> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Reads each request and never answers it. */
export function startSilentReceiver(): Promise<WebhookReceiver> {
  const arrivals: number[] = [];
  const server = createServer((request) => {
    arrivals.push(performance.now());
    request.resume();
  });
  // The default request timeout would answer 408 after 300 s; the attacker's endpoint never answers.
  server.requestTimeout = 0;
  return listen(server, arrivals);
}

/** Answers 200 as soon as the body has arrived. */
export function startPromptReceiver(): Promise<WebhookReceiver> {
  const arrivals: number[] = [];
  const server = createServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  return listen(server, arrivals);
}
