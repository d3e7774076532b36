import assert from 'node:assert/strict';

/** The error `call` throws, checked to be of `kind`. */
export function thrown<E extends Error>(kind: new (...args: never[]) => E, call: () => unknown): E {
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    assert.ok(error instanceof kind, `expected a ${kind.name}, got ${String(error)}`);
    return error;
  }
  // An asynchronous call reports its failure through its promise: rejected() waits for it.
  assert.ok(!(result instanceof Promise), 'the call is asynchronous: use rejected()');
  assert.fail(`expected a ${kind.name}, nothing was thrown`);
}

/** The error the promise of `call` rejects with, checked to be of `kind`. */
export async function rejected<E extends Error>(
  kind: new (...args: never[]) => E,
  call: () => Promise<unknown>,
): Promise<E> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof kind, `expected a ${kind.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected a ${kind.name}, nothing was thrown`);
}
