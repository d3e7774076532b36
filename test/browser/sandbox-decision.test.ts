/**
 * KUMO_BROWSER_SANDBOX=auto runs Chromium in its sandbox wherever the sandbox can start, and
 * says why not where it cannot (root, no user namespaces and no setuid helper); on and off are
 * obeyed as set.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideSandbox, localSandboxHost, type SandboxHost } from '../../src/browser/chromium-launch.js';

const ABLE: SandboxHost = { uid: 1000, userNamespaces: true, setuidHelper: false };

describe('sandbox decision', () => {
  test('auto uses the sandbox where user namespaces or a setuid helper let it start', () => {
    assert.deepEqual(decideSandbox('auto', ABLE), { enabled: true, reason: 'the sandbox can start here' });
    assert.equal(decideSandbox('auto', { ...ABLE, userNamespaces: false, setuidHelper: true }).enabled, true);
    assert.equal(decideSandbox('auto', { ...ABLE, uid: undefined }).enabled, true);
  });

  test('auto says why it runs without the sandbox', () => {
    assert.deepEqual(decideSandbox('auto', { ...ABLE, uid: 0 }), {
      enabled: false,
      reason: 'the service runs as root, where Chromium cannot use its sandbox',
    });
    assert.deepEqual(decideSandbox('auto', { ...ABLE, userNamespaces: false }), {
      enabled: false,
      reason: 'unprivileged user namespaces are off and there is no setuid chrome-sandbox helper',
    });
  });

  test('on and off are obeyed, even as root', () => {
    assert.equal(decideSandbox('on', { ...ABLE, uid: 0 }).enabled, true);
    assert.deepEqual(decideSandbox('off', ABLE), { enabled: false, reason: 'KUMO_BROWSER_SANDBOX is off' });
  });

  test('this machine: auto follows the user the tests run as', () => {
    const host = localSandboxHost('/usr/bin/chromium');
    assert.equal(host.uid, process.getuid?.());
    const decision = decideSandbox('auto', host);
    if (host.uid === 0) assert.equal(decision.enabled, false, decision.reason);
    else assert.equal(decision.enabled, host.userNamespaces || host.setuidHelper, decision.reason);
  });
});
