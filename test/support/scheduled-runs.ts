/**
 * A scheduled setting's runs driven through the admin API of a test service, as the re-crawl
 * tests run them: start one run, wait for its history row, download its files.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { pollUntil, TEST_ADMIN_TOKEN, type TestService } from './service-harness.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const GROUP = '/admin/v1/contracts/1/servicegroups/1';

/** A run's history row, the fields these tests read. */
export interface RunHistory {
  id: number;
  crawl_execution_status_dtype_id: number;
  crawl_url_list_path: string;
  message?: string;
}

/**
 * Creates a scheduled setting (no schedule: runs are started by hand) crawling from `seedUrl`
 * into search service 1, as a site owner's setting feeding search; answers its id.
 */
export async function createSearchFeedingSetting(kumo: TestService, seedUrl: string): Promise<number> {
  const created = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings`,
    headers: { ...ADMIN, 'content-type': 'application/json' },
    payload: { setting: { seed_urls: [seedUrl] }, schedule: { interval: 0 }, service_id: 1 },
  });
  assert.equal(created.statusCode, 200, created.body);
  return created.json.service_setting_id as number;
}

/**
 * How long a run of a few pages may take to end: a second alone, but over ten on a machine
 * running several test files beside PostgreSQL and an object store.
 */
const RUN_END_MS = 60_000;

/** Starts a run of the setting and waits until its history holds `runs` rows, the newest ended. */
export async function runSettingOnce(
  kumo: TestService,
  settingId: number,
  runs: number,
): Promise<RunHistory> {
  const run = await kumo.inject({
    method: 'POST',
    url: `${GROUP}/service_settings/${settingId}/run`,
    headers: ADMIN,
  });
  assert.equal(run.statusCode, 200, run.body);
  const range = 'from_datetime=2000-01-01T00:00:00Z&to_datetime=2100-01-01T00:00:00Z';
  return pollUntil(
    `scheduled run ${runs} to finish`,
    async () => {
      const answer = await kumo.inject({
        method: 'GET',
        url: `/api/v1.0/crawler_service/contracts/1/servicegroups/1/service_settings/${settingId}/histories?${range}`,
      });
      const list = answer.json.contents as RunHistory[];
      return list.length === runs && list[0]!.crawl_execution_status_dtype_id >= 2030 ? list[0] : undefined;
    },
    RUN_END_MS,
  );
}

/** One of the run's files (`url_list.csv.gz`, `crawl_objects.tar.gz`), downloaded and gunzipped. */
export async function downloadRunFile(kumo: TestService, history: RunHistory, file: string): Promise<Buffer> {
  const response = await fetch(`${kumo.url}${history.crawl_url_list_path.replace('url_list.csv.gz', file)}`);
  assert.equal(response.status, 200);
  return gunzipSync(Buffer.from(await response.arrayBuffer()));
}
