/**
 * The previous bundle read page by page through the service (docs/reference/crawl-rules.md,
 * Conditional re-crawls): a part that cannot be read, however, is an undefined copy (the page is
 * fetched whole), never a failure of the run.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BundlePartAnswer, BundlePartRequest } from '../../src/worker/bundle-part-protocol.js';
import { relayBundlePart } from '../../src/worker/bundle-part-relay.js';
import { RemoteMemberReader } from '../../src/worker/remote-member-reader.js';

/** A thread's reader wired straight to the service's relay over `read`. */
function wired(read: ((offset: number, bytes: number) => Promise<Buffer | undefined>) | undefined) {
  const asked: BundlePartRequest[] = [];
  const reader: RemoteMemberReader = new RemoteMemberReader((request) => {
    asked.push(request);
    relayBundlePart(request, read, (answer) => reader.answered(answer));
  });
  return { reader, asked };
}

describe('bundle parts over the run thread port', () => {
  test('a read answers the bytes the service read', async () => {
    const bundle = Buffer.from('0123456789');
    const { reader, asked } = wired(async (offset, bytes) => bundle.subarray(offset, offset + bytes));
    assert.deepEqual(await reader.read(2, 3), Buffer.from('234'));
    assert.deepEqual(
      asked.map(({ offset, bytes }) => [offset, bytes]),
      [[2, 3]],
    );
  });

  test('a missing part, a failing store or no reader at all give undefined', async () => {
    assert.equal(await wired(async () => undefined).reader.read(0, 4), undefined);
    const failing = wired(() => Promise.reject(new Error('NoSuchKey')));
    assert.equal(await failing.reader.read(0, 4), undefined);
    assert.equal(await wired(undefined).reader.read(0, 4), undefined);
  });

  test('an unanswered read gives up after its time, and later reads do not ask; close settles what waits', async () => {
    const sent: BundlePartRequest[] = [];
    const silent = new RemoteMemberReader((request) => sent.push(request), 20);
    assert.equal(await silent.read(0, 4), undefined);
    // The service is stuck: the run's later pages are fetched whole at once.
    assert.equal(await silent.read(8, 4), undefined);
    assert.equal(sent.length, 1);
    const closing = new RemoteMemberReader(() => undefined);
    const waiting = closing.read(0, 4);
    closing.close();
    assert.equal(await waiting, undefined);
    assert.equal(await closing.read(0, 4), undefined);
    // A late answer after the close is dropped, and does not make later reads answer.
    const late: BundlePartAnswer = { type: 'bundle-part', id: 1, data: new Uint8Array([1]) };
    closing.answered(late);
    assert.equal(await closing.read(0, 1), undefined);
  });
});
