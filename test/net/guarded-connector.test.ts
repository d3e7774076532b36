/**
 * Connections checked on the address actually connected to: IP literals, every address a name
 * resolves to, a DNS answer that changes after a check (rebinding), and the connected peer.
 * Loopback only: 127.0.0.2 plays the allowed host (allowed through the CIDR list), 127.0.0.1 the
 * refused one; names are resolved by a scripted resolver, never by real DNS.
 */
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import { FetchFailure } from '../../src/crawler/index.js';
import { createUndiciFetcher, type HttpFetcher } from '../../src/crawler/engine.js';
import { type AddressGuard, AddressPolicy } from '../../src/net/address-policy.js';
import { ADDRESS_REFUSED, AddressRefusedError } from '../../src/net/address-refusal.js';
import { guardedConnector, guardedLookup } from '../../src/net/guarded-connector.js';
import { fakeLookup } from './support/fake-lookup.js';
import { type RecordingServer, startRecordingServer } from './support/recording-server.js';

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(host: string): Promise<RecordingServer> {
  const started = await startRecordingServer(host);
  cleanups.push(() => started.close());
  return started;
}

function fetcherWith(addresses: AddressGuard): HttpFetcher {
  const fetcher = createUndiciFetcher({ addresses });
  cleanups.push(() => fetcher.close());
  return fetcher;
}

/** The FetchFailure of fetching `url`, failing the test when the fetch succeeds. */
async function failureOf(fetcher: HttpFetcher, url: string): Promise<FetchFailure> {
  try {
    const response = await fetcher.fetchHop({ url, headers: {}, signal: AbortSignal.timeout(5000) });
    await response.discard();
  } catch (error) {
    assert.ok(error instanceof FetchFailure, String(error));
    return error;
  }
  assert.fail(`${url} was fetched`);
}

async function bodyOf(fetcher: HttpFetcher, url: string): Promise<string> {
  const response = await fetcher.fetchHop({ url, headers: {}, signal: AbortSignal.timeout(5000) });
  assert.equal(response.status, 200);
  return (await response.readBody(1024)).toString();
}

describe('guarded connections', () => {
  test('an IP literal of a refused range is never connected to', async () => {
    const refused = await server('127.0.0.1');
    const fetcher = fetcherWith(new AddressPolicy(false));
    for (const url of [
      `${refused.origin}/a`,
      `http://[::ffff:127.0.0.1]:${refused.port}/b`,
      `http://[::ffff:7f00:1]:${refused.port}/c`,
      `http://0x7f.1:${refused.port}/d`, // the URL parser makes it 127.0.0.1
    ]) {
      const failure = await failureOf(fetcher, url);
      assert.equal(failure.kind, 'address_refused', url);
      assert.equal(failure.retryable, false);
      assert.match(
        failure.message,
        /^address refused: .*127\.0\.0\.1.* loopback address.* private networks are not allowed$/,
      );
      assert.ok(addressRefusal(failure), 'the AddressRefusedError is the cause');
    }
    assert.equal(refused.connections, 0);
    assert.deepEqual(refused.requests, []);
  });

  test('a name is judged on every address it resolves to, after resolution', async () => {
    const allowed = await server('127.0.0.2');
    const lookup = fakeLookup([['127.0.0.2', '127.0.0.1']]);
    const fetcher = fetcherWith(new AddressPolicy(['127.0.0.2/32'], { lookup }));
    const failure = await failureOf(fetcher, `http://mixed.test:${allowed.port}/`);
    assert.equal(failure.kind, 'address_refused');
    assert.equal(
      failure.message,
      'address refused: mixed.test resolves to a refused address: ' +
        '127.0.0.1 is a loopback address and private networks are not allowed',
    );
    assert.deepEqual(lookup.calls, ['mixed.test']);
    assert.equal(allowed.connections, 0, 'not even the allowed address of a refused name');
  });

  test('an allowed name connects to the address that was checked, resolved once', async () => {
    const allowed = await server('127.0.0.2');
    const lookup = fakeLookup([['127.0.0.2']]);
    const fetcher = fetcherWith(new AddressPolicy(['127.0.0.2/32'], { lookup }));
    assert.equal(await bodyOf(fetcher, `http://allowed.test:${allowed.port}/page`), '<title>/page</title>');
    assert.deepEqual(lookup.calls, ['allowed.test']);
    assert.deepEqual(allowed.requests, ['/page']);
  });

  test('a name the resolver does not know stays a network failure', async () => {
    const lookup = fakeLookup([['127.0.0.2']], ['known.test']);
    const fetcher = fetcherWith(new AddressPolicy(['127.0.0.2/32'], { lookup }));
    const failure = await failureOf(fetcher, 'http://unknown.test:1/');
    assert.equal(failure.kind, 'network', 'an unresolvable name stays a network failure');
    assert.match(failure.message, /ENOTFOUND/);
  });

  test('DNS rebinding: a public answer to the check, a loopback answer to the connection, refused', async () => {
    const refused = await server('127.0.0.1');
    // First answer (the check before fetching): public. Every later one (the connection): loopback.
    const lookup = fakeLookup([['93.184.216.34'], ['127.0.0.1']]);
    const policy = new AddressPolicy(false, { lookup });
    assert.equal(await policy.refusalOfHost('rebind.test'), undefined, 'the early check is fooled');
    const failure = await failureOf(fetcherWith(policy), `http://rebind.test:${refused.port}/secret`);
    assert.equal(failure.kind, 'address_refused');
    assert.match(failure.message, /rebind\.test resolves to a refused address: 127\.0\.0\.1 is a loopback/);
    assert.deepEqual(lookup.calls, ['rebind.test', 'rebind.test']);
    assert.equal(refused.connections, 0);
    assert.deepEqual(refused.requests, []);
  });

  test('the connected peer is judged again before any request byte is written', async () => {
    const target = await server('127.0.0.2');
    let judged = 0;
    // Allows the resolved address, then refuses the peer: as if the socket had gone elsewhere.
    const guard: AddressGuard = {
      lookup: fakeLookup([['127.0.0.2']]),
      refusalOf: (address) => (judged++ === 0 ? undefined : `${address} is not the address checked`),
    };
    const agent = new Agent({ connect: guardedConnector(guard) });
    cleanups.push(() => agent.close());
    await assert.rejects(
      request(`http://peer.test:${target.port}/`, { dispatcher: agent }),
      (error: unknown) => {
        assert.ok(error instanceof AddressRefusedError);
        assert.equal(error.code, ADDRESS_REFUSED);
        assert.equal(error.host, 'peer.test');
        assert.equal(error.reason, '127.0.0.2 is not the address checked');
        return true;
      },
    );
    assert.equal(judged, 2);
    assert.equal(target.connections, 1);
    assert.deepEqual(target.requests, []);
  });

  test('true allows every address and the resolver is still the injected one', async () => {
    const target = await server('127.0.0.1');
    const lookup = fakeLookup([['127.0.0.1']]);
    const fetcher = fetcherWith(new AddressPolicy(true, { lookup }));
    assert.equal(await bodyOf(fetcher, `${target.origin}/x`), '<title>/x</title>');
    assert.equal(await bodyOf(fetcher, `http://open.test:${target.port}/y`), '<title>/y</title>');
    assert.deepEqual(lookup.calls, ['open.test']);
  });
});

describe('guardedLookup', () => {
  const policy = new AddressPolicy(['127.0.0.2/32'], {
    lookup: fakeLookup([['127.0.0.2', '::ffff:127.0.0.2']]),
  });
  const lookup = guardedLookup(policy);

  function ask(
    all: boolean,
  ): Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }> {
    return new Promise((resolve) =>
      lookup('x.test', { all }, (error, address, family) => resolve({ error, address, family })),
    );
  }

  test('answers in the form asked for: all addresses, or the first with its family', async () => {
    assert.deepEqual(await ask(true), {
      error: null,
      address: [
        { address: '127.0.0.2', family: 4 },
        { address: '::ffff:127.0.0.2', family: 6 },
      ],
      family: undefined,
    });
    assert.deepEqual(await ask(false), { error: null, address: '127.0.0.2', family: 4 });
  });

  test('an answer without any address is refused', async () => {
    const empty = guardedLookup(new AddressPolicy(false, { lookup: fakeLookup([[]]) }));
    const error = await new Promise<Error | null>((resolve) => empty('void.test', { all: true }, resolve));
    assert.ok(error instanceof AddressRefusedError);
    assert.equal(error.reason, 'void.test resolves to no address');
  });
});

function addressRefusal(failure: FetchFailure): AddressRefusedError | undefined {
  return failure.cause instanceof AddressRefusedError ? failure.cause : undefined;
}
