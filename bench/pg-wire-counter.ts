/**
 * A TCP relay between Kumo and PostgreSQL that counts what crosses it: bytes each way, and round
 * trips, read from the frontend protocol (each Sync of the extended protocol and each simple
 * Query is one wait for the server's answer). The client's first message (startup, or an SSL
 * request followed by the startup) has no type byte and is skipped.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';

export interface WireCounts {
  roundTrips: number;
  bytesToServer: number;
  bytesToClient: number;
}

export interface WireCounter {
  /** The relay's port on 127.0.0.1. */
  port: number;
  counts(): WireCounts;
  close(): Promise<void>;
}

export async function startWireCounter(target: { host: string; port: number }): Promise<WireCounter> {
  const totals: WireCounts = { roundTrips: 0, bytesToServer: 0, bytesToClient: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const parser = frontendParser(() => (totals.roundTrips += 1));
    client.on('data', (chunk: Buffer) => {
      totals.bytesToServer += chunk.length;
      parser(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      totals.bytesToClient += chunk.length;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    counts: () => ({ ...totals }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads the client's messages across chunks; calls `roundTrip` at each Sync ('S') or Query ('Q'). */
function frontendParser(roundTrip: () => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (!started) {
        // Untyped: int32 length, then int32 code (80877103 asks for SSL, answered by one byte).
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        pending = pending.subarray(length);
        if (code !== 80877103) started = true;
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < length + 1) return;
      const type = String.fromCharCode(pending[0]!);
      if (type === 'S' || type === 'Q') roundTrip();
      pending = pending.subarray(length + 1);
    }
  };
}
