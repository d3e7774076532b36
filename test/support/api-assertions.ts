/** Assertions on the answers of the HTTP API, as `TestService.inject` returns them. */
import assert from 'node:assert/strict';
import type { InjectResult } from './service-harness.js';

/** An NG answer: `statusCode`, a JSON body with status NG and a non-empty message. */
export function assertNg(response: InjectResult, statusCode: number): void {
  assert.equal(response.statusCode, statusCode, response.body);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.equal(response.json?.status, 'NG', response.body);
  assert.equal(typeof response.json.message, 'string');
  assert.notEqual(response.json.message, '');
}
