/**
 * The egress gate, the proxy of rendered pages' own connections (WebSockets, TURN over TCP):
 * tunnels only to addresses the address policy allows, judged on the address connected to,
 * and refuses at once, without contacting it, any other (open and closed ports alike).
 */
import assert from 'node:assert/strict';
import { type AddressInfo, connect, createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { EgressGate } from '../../src/browser/egress-gate.js';
import { AddressPolicy } from '../../src/net/index.js';
import { fakeLookup } from '../net/support/fake-lookup.js';

/** Sends `request` to the gate and collects what comes back until the gate closes or `until` matches. */
async function exchange(gate: EgressGate, request: string, until?: RegExp): Promise<string> {
  const { port } = new URL(gate.proxyServer);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  return new Promise((resolve, reject) => {
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      if (until?.test(answer)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

async function listen(host: string): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.end('hello from the target');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe('egress gate', () => {
  let refused: Awaited<ReturnType<typeof listen>>;
  let allowed: Awaited<ReturnType<typeof listen>>;
  let gate: EgressGate;
  // Every host name resolves to the refused 127.0.0.1 (a rebinding answer).
  const lookup = fakeLookup([['127.0.0.1']]);

  before(async () => {
    refused = await listen('127.0.0.1');
    allowed = await listen('127.0.0.2');
    gate = await EgressGate.start(new AddressPolicy(['127.0.0.2/32'], { lookup }), 5000);
  });

  after(async () => {
    await gate.close();
    await Promise.all(
      [refused, allowed].map(({ server }) => new Promise((resolve) => server.close(resolve))),
    );
  });

  test('a tunnel to an allowed address carries bytes both ways', async () => {
    const target = `127.0.0.2:${allowed.port}`;
    const answer = await exchange(gate, `CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`, /hello/);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /hello from the target/);
    assert.equal(allowed.connections(), 1);
  });

  test('a refused address, literal or behind a host name, is answered 403 and never contacted', async () => {
    for (const target of [
      `127.0.0.1:${refused.port}`,
      `localhost:${refused.port}`,
      `[::1]:${refused.port}`,
    ]) {
      const answer = await exchange(gate, `CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 403 /, target);
    }
    assert.equal(refused.connections(), 0);
    assert.deepEqual(lookup.calls, ['localhost']);
  });

  test('plain proxy requests and malformed targets are refused', async () => {
    const plain = await exchange(
      gate,
      `GET http://127.0.0.2:${allowed.port}/ HTTP/1.1\r\nhost: x\r\n\r\n`,
      /\r\n\r\n/,
    );
    assert.match(plain, /^HTTP\/1\.1 403 /);
    const malformed = await exchange(gate, 'CONNECT nowhere HTTP/1.1\r\nhost: nowhere\r\n\r\n');
    assert.match(malformed, /^HTTP\/1\.1 400 /);
  });
});
