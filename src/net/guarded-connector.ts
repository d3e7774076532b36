import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { type AddressGuard, refusalOfAddresses } from './address-policy.js';
import { AddressRefusedError } from './address-refusal.js';

/**
 * A `dns.lookup`-compatible function for `net.connect` that resolves with the guard's resolver,
 * judges every address of the answer and hands the socket exactly the addresses it judged: the
 * socket connects to them without resolving again, so a second (rebinding) answer never counts.
 */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    guard.lookup(hostname, { ...options, all: true }, (error, found, family) => {
      if (error) return callback(error, '');
      const addresses: LookupAddress[] = Array.isArray(found)
        ? found
        : [{ address: found, family: family ?? isIP(found) }];
      const refusal = refusalOfAddresses(guard, hostname, addresses);
      if (refusal !== undefined) return callback(new AddressRefusedError(hostname, refusal), '');
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };
}

/**
 * An undici connector (Agent `connect` option) that connects only to addresses the guard allows:
 * an IP literal is judged before connecting, a host name through guardedLookup, and the peer
 * address of the connected socket once more before the socket is handed to undici (before any
 * request byte is written). A refusal fails the connection with an AddressRefusedError.
 */
export function guardedConnector(
  guard: AddressGuard,
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const connect = buildConnector({ ...options, lookup: guardedLookup(guard) });
  return (target, callback) => {
    // net.connect skips the lookup for an IP literal: it is judged here.
    if (isIP(target.hostname) !== 0) {
      const refusal = guard.refusalOf(target.hostname);
      if (refusal !== undefined) {
        const error = new AddressRefusedError(target.hostname, refusal);
        queueMicrotask(() => callback(error, null));
        return;
      }
    }
    connect(target, (error, socket) => {
      if (error !== null) return callback(error, null);
      const peer = socket.remoteAddress;
      const refusal = peer === undefined ? undefined : guard.refusalOf(peer);
      if (refusal === undefined) return callback(null, socket);
      socket.destroy();
      return callback(new AddressRefusedError(target.hostname, refusal), null);
    });
  };
}
