import assert from 'node:assert/strict';

/** The error `call` throws, checked to be of `kind`. */
export function thrown<E extends Error>(kind: new (...args: never[]) => E, call: () => unknown): E {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof kind, `expected a ${kind.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected a ${kind.name}, nothing was thrown`);
}
