/**
 * `kumo admin setting` and `kumo admin webhook` as an operator uses them: crawl service settings
 * from a JSON file (validated, every error naming its field), run now, webhooks whose secret is
 * never printed, and their delivery queue.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';

let folder: string;
const env = () => ({ KUMO_DATA_DIR: path.join(folder, 'data'), KUMO_TIMEZONE: 'Asia/Tokyo' });
const admin = (...args: string[]) => runCli(['admin', ...args], 30_000, env());

/** Writes `body` as a JSON file and returns its path. */
async function configFile(name: string, body: unknown): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, JSON.stringify(body));
  return file;
}

const GROUP = ['--contract', '1', '--servicegroup', '1'];
const SETTING = { seed_urls: ['https://www.example.com/'], depth_limit: 2 };
const DAILY = { interval: 2, hour: 9, min: 30 };

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-admin-schedule-'));
  // The store kumo serve makes at its first start, without the demo tenant (kumo admin makes none).
  await prepareDataDir(path.join(folder, 'data'), { demoTenant: false });
  // Contract 1 with service groups 1 and 2, each with a search service (1 and 2).
  for (const args of [
    ['contract', 'create', '--name', 'acme'],
    ['servicegroup', 'create', '--contract', '1', '--name', 'web'],
    ['servicegroup', 'create', '--contract', '1', '--name', 'intranet'],
    ['searchservice', 'create', ...GROUP, '--name', 'docs'],
    ['searchservice', 'create', '--contract', '1', '--servicegroup', '2', '--name', 'other'],
  ]) {
    const result = await admin(...args);
    assert.equal(result.code, 0, result.stderr);
  }
});
after(async () => rm(folder, { recursive: true, force: true }));

describe('kumo admin setting', () => {
  test('a bad file is refused with every field error on its own line', async () => {
    const file = await configFile('bad.json', {
      setting: { seed_urls: ['ftp://x'] },
      schedule: { interval: 2 },
      settings: {},
    });
    const refused = await admin('setting', 'create', ...GROUP, '--config', file);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^setting\.seed_urls\[0\]: scheme "ftp:" is not http or https$/m);
    assert.match(refused.stderr, /^schedule\.hour: is required for a daily schedule/m);
    assert.match(refused.stderr, /^settings: unknown field/m);
    const listed = await admin('setting', 'list');
    assert.equal(listed.stdout.trim().split('\n').length, 1, 'only the header: nothing was created');
  });

  test('creates, shows, lists, updates, runs and deletes a setting', async () => {
    const file = await configFile('good.json', { setting: SETTING, schedule: DAILY, service_id: 1 });
    const created = await admin('setting', 'create', ...GROUP, '--config', file, '--name', 'nightly');
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^crawl service setting (\d+) created$/m);
    const id = /setting (\d+) created/.exec(created.stdout)![1]!;

    const shown = JSON.parse((await admin('setting', 'show', id)).stdout);
    assert.deepEqual(
      { ...shown, next_run_datetime: undefined },
      {
        id: Number(id),
        name: 'nightly',
        setting: SETTING,
        schedule: DAILY,
        service_id: 1,
        next_run_datetime: undefined,
      },
    );
    assert.match(shown.next_run_datetime, /^\d{4}-\d{2}-\d{2}T09:30:00\.000000\+09:00$/);

    const listed = await admin('setting', 'list', '--contract', '1');
    assert.match(
      listed.stdout,
      new RegExp(
        `^${id}\\t1\\t1\\tnightly\\tdaily 09:30\\t1\\t${shown.next_run_datetime.replace(/\+/, '\\+')}$`,
        'm',
      ),
    );

    const monthly = { interval: 4, hour: 4, min: 0, day_of_month: 31 };
    const changed = await configFile('changed.json', {
      setting: SETTING,
      schedule: monthly,
      service_id: null,
    });
    const updated = await admin('setting', 'update', id, '--config', changed);
    assert.equal(updated.code, 0, updated.stderr);
    const replaced = JSON.parse((await admin('setting', 'show', id)).stdout);
    assert.equal(replaced.name, 'nightly', 'the name stays without --name');
    assert.deepEqual(replaced.schedule, monthly);
    assert.equal(replaced.service_id, null);
    assert.match((await admin('setting', 'list')).stdout, /\tnightly\tmonthly day 31 04:00\t-\t/);

    const paused = await admin('setting', 'pause', id);
    assert.equal(paused.stdout.trim(), `schedule of crawl service setting ${id} paused`);
    assert.match((await admin('setting', 'list')).stdout, /\tnightly\tpaused monthly day 31 04:00\t-\t-$/m);
    const resumed = await admin('setting', 'resume', id);
    assert.match(
      resumed.stdout,
      new RegExp(`^schedule of crawl service setting ${id} resumed; next run \\d{4}-`),
    );
    assert.match((await admin('setting', 'list')).stdout, /\tnightly\tmonthly day 31 04:00\t-\t\d{4}-/);

    const run = await admin('setting', 'run', id);
    assert.equal(run.code, 0, run.stderr);
    const runId = new RegExp(`^run (\\d+) queued for crawl service setting ${id}$`, 'm').exec(
      run.stdout,
    )?.[1];
    assert.ok(runId, run.stdout);
    const again = await admin('setting', 'run', id);
    assert.equal(again.code, 2);
    assert.match(again.stderr, new RegExp(`run ${runId} of crawl service setting ${id} is still pending`));

    const deleted = await admin('setting', 'delete', id);
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await admin('setting', 'show', id);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, new RegExp(`no crawl service setting ${id}`));
  });

  test("another service group's search service is refused, naming service_id", async () => {
    const file = await configFile('foreign.json', { setting: SETTING, schedule: DAILY, service_id: 2 });
    const refused = await admin('setting', 'create', ...GROUP, '--config', file);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^service_id: no search service 2 in this service group$/m);

    const own = await configFile('own.json', { setting: SETTING, schedule: { interval: 1, min: 15 } });
    const created = await admin('setting', 'create', ...GROUP, '--config', own);
    assert.equal(created.code, 0, created.stderr);
    const id = /setting (\d+) created/.exec(created.stdout)![1]!;
    const update = await admin('setting', 'update', id, '--config', file);
    assert.equal(update.code, 2);
    assert.match(update.stderr, /^service_id: /m);
    assert.match(
      (await admin('setting', 'list')).stdout,
      new RegExp(`^${id}\\t1\\t1\\t\\thourly :15\\t-\\t`, 'm'),
    );
  });
});

describe('kumo admin webhook', () => {
  const SECRET = 'correct-horse-battery-staple';

  test('a short secret or a non-http URL is refused', async () => {
    const short = await admin(
      'webhook',
      'create',
      ...GROUP,
      '--url',
      'https://hooks.example/kumo',
      '--secret',
      'abc',
    );
    assert.equal(short.code, 2);
    assert.match(short.stderr, /--secret: must be 16 to 256 characters/);
    const ftp = await admin(
      'webhook',
      'create',
      ...GROUP,
      '--url',
      'ftp://hooks.example/',
      '--secret',
      SECRET,
    );
    assert.equal(ftp.code, 2);
    assert.match(ftp.stderr, /--url: scheme "ftp:" is not http or https/);
  });

  test('creates and lists a webhook without its secret; deliveries, replay and delete', async () => {
    const created = await admin(
      'webhook',
      'create',
      ...GROUP,
      '--url',
      'https://hooks.example/kumo',
      '--secret',
      SECRET,
    );
    assert.equal(created.code, 0, created.stderr);
    const id = /^webhook (\d+) created/m.exec(created.stdout)?.[1];
    assert.ok(id, created.stdout);
    assert.doesNotMatch(created.stdout, new RegExp(SECRET));

    const listed = await admin('webhook', 'list', '--contract', '1');
    assert.match(listed.stdout, new RegExp(`^${id}\\t1\\t1\\thttps://hooks.example/kumo\\t`, 'm'));
    assert.doesNotMatch(listed.stdout, new RegExp(SECRET));

    const deliveries = await admin('webhook', 'deliveries', id, '--limit', '10');
    assert.equal(deliveries.code, 0, deliveries.stderr);
    assert.equal(
      deliveries.stdout,
      'id\tevent\tstate\tattempts\tlast_status\tlast_error\tnext_attempt\tcreated\n',
    );
    const badLimit = await admin('webhook', 'deliveries', id, '--limit', '0');
    assert.equal(badLimit.code, 2);
    assert.match(badLimit.stderr, /--limit/);

    const replay = await admin('webhook', 'replay', '999');
    assert.equal(replay.code, 2);
    assert.match(replay.stderr, /no delivery 999/);

    assert.equal((await admin('webhook', 'delete', id)).code, 0);
    assert.doesNotMatch((await admin('webhook', 'list')).stdout, /hooks\.example/);
    const again = await admin('webhook', 'delete', id);
    assert.equal(again.code, 2);
    assert.match(again.stderr, new RegExp(`no webhook ${id}`));
  });
});
