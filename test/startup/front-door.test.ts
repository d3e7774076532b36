/**
 * The front door of a cluster on one machine (src/startup/front-door.ts; docs/operations.md,
 * Trying a cluster on one machine), against real listeners standing in for the processes: site
 * search, widget and hosted page paths go to the search nodes in turn, everything else to the API
 * processes; the request's method, body and Host reach the member, its status, headers and body
 * come back; a member that cannot be reached answers 502 naming it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type FrontDoor, goesToSearch, startFrontDoor } from '../../src/startup/front-door.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';
import { freePort } from '../support/service-harness.js';

/** A listener answering who it is and what it was sent, as JSON. */
async function member(name: string): Promise<LocalServer> {
  return listenLocally(
    createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        response.writeHead(name.startsWith('api') ? 201 : 200, {
          'content-type': 'application/json',
          'x-member': name,
        });
        response.end(
          JSON.stringify({
            name,
            method: request.method,
            url: request.url,
            host: request.headers.host,
            forwardedFor: request.headers['x-forwarded-for'],
            body,
          }),
        );
      });
    }),
  );
}

interface Seen {
  name: string;
  method: string;
  url: string;
  host: string;
  forwardedFor: string;
  body: string;
}

let members: LocalServer[];
let door: FrontDoor;

before(async () => {
  members = await Promise.all([member('api'), member('search-1'), member('search-2')]);
  door = await startFrontDoor({
    host: '127.0.0.1',
    port: 0,
    api: [members[0]!.baseUrl],
    search: [members[1]!.baseUrl, members[2]!.baseUrl],
    finderBasePath: '/api/v1.0/finder_service',
  });
});
after(async () => {
  await door?.close();
  await Promise.all(members.map((one) => one.close()));
});

async function send(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; seen: Seen; headers: Headers }> {
  const response = await fetch(`${door.url}${path}`, init);
  return { status: response.status, headers: response.headers, seen: (await response.json()) as Seen };
}

describe('front door', () => {
  test('search, widget and hosted page paths go to the search nodes in turn, the rest to the API', async () => {
    const searchPaths = [
      '/api/v1.0/finder_service/documents/1/1/1/search?q=page',
      '/widget/v1/kumo-search.js',
      '/search/1/1/1?q=tomato',
      '/api/v1.0/finder_service/health_check',
    ];
    const names: string[] = [];
    for (const path of searchPaths) {
      const { status, seen } = await send(path);
      assert.equal(status, 200);
      assert.equal(seen.url, path);
      names.push(seen.name);
    }
    assert.deepEqual(names, ['search-1', 'search-2', 'search-1', 'search-2']);
    for (const path of [
      '/console/',
      '/admin/v1/contracts',
      '/api/v1/contracts/1/servicegroups/1/request',
      '/docs',
      '/console/contracts/1/groups/1/search/1',
    ]) {
      const { status, seen } = await send(path);
      assert.equal(status, 201, path);
      assert.equal(seen.name, 'api', path);
    }
    assert.equal(goesToSearch('/api/v1.0/finder_services', '/api/v1.0/finder_service'), false);
    assert.equal(goesToSearch('/searching', '/api/v1.0/finder_service'), false);
  });

  test("the member gets the method, body, Host and the client's address; the answer comes back whole", async () => {
    const body = JSON.stringify({ admin_token: 'x'.repeat(70_000) });
    const { status, seen, headers } = await send('/admin/v1/operator_session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(status, 201);
    assert.equal(headers.get('x-member'), 'api');
    assert.equal(seen.method, 'POST');
    assert.equal(seen.body, body);
    assert.equal(seen.host, new URL(door.url).host, 'the browser-facing Host reaches the member');
    assert.equal(seen.forwardedFor, '127.0.0.1');
  });

  test('a member that cannot be reached answers 502 naming it', async () => {
    const closedPort = await freePort();
    const lonely = await startFrontDoor({
      host: '127.0.0.1',
      port: 0,
      api: [`http://127.0.0.1:${closedPort}`],
      search: [],
      finderBasePath: '/api/v1.0/finder_service',
    });
    try {
      const response = await fetch(`${lonely.url}/console/`);
      assert.equal(response.status, 502);
      const answer = (await response.json()) as { status: string; message: string };
      assert.equal(answer.status, 'NG');
      assert.match(
        answer.message,
        new RegExp(`could not reach the API process http://127\\.0\\.0\\.1:${closedPort}`),
      );
    } finally {
      await lonely.close();
    }
  });
});
