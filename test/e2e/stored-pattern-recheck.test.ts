/**
 * Settings stored before patterns ran on RE2 (docs/operations.md, Patterns stored before RE2): a
 * crawl service setting and a search service configuration written straight into the store with
 * patterns RE2 cannot run. `kumo serve` warns about each at start, naming the setting, the field
 * and the construct; the setting's run ends 2040 with that as its message; search goes on without
 * the rule.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { prepareDataDir } from '../support/prepared-data-dir.js';
import { docPath } from '../support/search-fixtures.js';
import { freePort, makeTempDir, pollUntil, TEST_ADMIN_TOKEN } from '../support/service-harness.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { startServeProcess } from '../support/serve-process.js';

const GROUP = '/contracts/1/servicegroups/1';
const NO_LOOKAROUND = '(patterns use RE2 syntax: no lookaround or backreferences)';
const SETTING_PROBLEM = `setting.allow_urls_patterns[1]: lookahead "(?=" is not supported ${NO_LOOKAROUND}`;
const SEARCH_PROBLEM = `categories[0].url_pattern: lookbehind "(?<=" is not supported ${NO_LOOKAROUND}`;

let site: LocalServer;
let dataDir: string;
const cleanups: (() => Promise<unknown>)[] = [];

before(async () => {
  site = await listenLocally(createServer((_request, response) => response.end('<html></html>')));
  dataDir = await makeTempDir('kumo-stored-pattern-');
  // The demo tenant's crawl service setting 1 feeds search service 1 (docs/operations.md, First start).
  await prepareDataDir(dataDir, { demoTenant: true });
  const db = new Database(path.join(dataDir, 'kumo.db'));
  try {
    const setting = {
      seed_urls: [`${site.baseUrl}/`],
      robots_txt: false,
      allow_urls_patterns: ['^http://127\\.0\\.0\\.1:\\d+/$', '^http://127\\.0\\.0\\.1:\\d+/(?=docs/)'],
    };
    const config = {
      categories: [
        { name: 'Docs', url_pattern: '(?<=/docs/)guide' },
        { name: 'All', url_pattern: '^http' },
      ],
    };
    assert.equal(
      db.prepare('UPDATE service_settings SET setting_json = ? WHERE id = 1').run(JSON.stringify(setting))
        .changes,
      1,
    );
    assert.equal(
      db.prepare('UPDATE search_services SET config_json = ? WHERE id = 1').run(JSON.stringify(config))
        .changes,
      1,
    );
  } finally {
    db.close();
  }
});

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await site.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The log lines of level warn the process printed (one JSON object a line). */
function warnings(output: string): { msg: string; field?: string; service_setting_id?: number }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level === 40);
}

test('a stored pattern RE2 cannot run: a warning at start, its run ends 2040 naming it, search goes on', async () => {
  const kumo = await startServeProcess({
    dataDir,
    port: await freePort(),
    env: { KUMO_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    cleanups,
  });
  // Log lines may reach the pipe after the line saying the service listens.
  const searchWarning = `search service 1: ${SEARCH_PROBLEM}; searches leave the rule out until the configuration is changed`;
  const logged = await pollUntil('the start-up warnings', () => {
    const lines = warnings(kumo.output());
    return lines.some((line) => line.msg === searchWarning) ? lines : undefined;
  });
  const settingWarning = logged.find((line) => line.service_setting_id === 1);
  assert.ok(settingWarning, kumo.output());
  assert.equal(
    settingWarning.msg,
    `crawl service setting 1: ${SETTING_PROBLEM}; its runs end 2040 until the setting is changed`,
  );
  assert.equal(settingWarning.field, 'setting.allow_urls_patterns[1]');

  const started = await fetch(`${kumo.url}/admin/v1${GROUP}/service_settings/1/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  const startedBody = (await started.json()) as { run_id: number };
  assert.equal(started.status, 200, JSON.stringify(startedBody));
  const range = 'from_datetime=2000-01-01T00:00:00Z&to_datetime=2100-01-01T00:00:00Z';
  const history = await pollUntil('the run of setting 1 to end', async () => {
    const response = await fetch(
      `${kumo.url}/api/v1.0/crawler_service${GROUP}/service_settings/1/histories?${range}`,
    );
    const body = (await response.json()) as {
      contents: { id: number; crawl_execution_status_dtype_id: number; message?: string }[];
    };
    const run = body.contents.find((one) => one.id === startedBody.run_id);
    return run && ![2010, 2020].includes(run.crawl_execution_status_dtype_id) ? run : undefined;
  });
  assert.equal(history.crawl_execution_status_dtype_id, 2040, JSON.stringify(history));
  assert.equal(history.message, `crawler failure: ${SETTING_PROBLEM}`);

  // Search uses the rules it can run: the category with the lookbehind is left out, not a crash.
  const search = await fetch(`${kumo.url}${docPath(1)}/search?q=x`);
  assert.equal(search.status, 200, await search.text());
  assert.ok(kumo.child.exitCode === null, 'the service still runs');
});
