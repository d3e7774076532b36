/**
 * KUMO_MAX_RUNNING_PER_CONTRACT (docs/operations.md, Settings): the run slots one contract may
 * hold, by default half of KUMO_WORKER_CONCURRENCY rounded up.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeSettings, loadConfig } from '../../src/config/config.js';

test('the share defaults to half the run slots, rounded up, at least 1', () => {
  const shareOf = (slots: string) => loadConfig({ KUMO_WORKER_CONCURRENCY: slots }).maxRunningPerContract;
  assert.equal(loadConfig({}).maxRunningPerContract, 1, 'the default 2 slots');
  assert.equal(shareOf('1'), 1);
  assert.equal(shareOf('4'), 2);
  assert.equal(shareOf('5'), 3);
  assert.equal(
    describeSettings().find((setting) => setting.env === 'KUMO_MAX_RUNNING_PER_CONTRACT')?.fallback,
    '(derived)',
  );
});

test('the share is read from the environment; 0 turns it off', () => {
  const config = loadConfig({ KUMO_WORKER_CONCURRENCY: '8', KUMO_MAX_RUNNING_PER_CONTRACT: '6' });
  assert.equal(config.maxRunningPerContract, 6);
  assert.equal(loadConfig({ KUMO_MAX_RUNNING_PER_CONTRACT: '0' }).maxRunningPerContract, 0);
});

test('a share that is not a whole number from 0 to 64 stops the start, naming the variable', () => {
  assert.throws(
    () => loadConfig({ KUMO_MAX_RUNNING_PER_CONTRACT: 'half' }),
    /KUMO_MAX_RUNNING_PER_CONTRACT: expected an integer, got "half"/,
  );
  assert.throws(
    () => loadConfig({ KUMO_MAX_RUNNING_PER_CONTRACT: '65' }),
    /KUMO_MAX_RUNNING_PER_CONTRACT: must be between 0 and 64, got 65/,
  );
});
