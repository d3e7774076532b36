/**
 * Browser rendering through the service: a screenshot crawl requested over the API and its
 * bundle downloaded (needs Chromium; skipped with the reason without it), and a service without
 * Chromium, which reports it in the health check and fails such runs at once as 2040 while plain
 * crawls still work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { probeChromium } from '../../src/browser/index.js';
import { loadConfig } from '../../src/config/index.js';
import { readTar } from '../support/artifact-readers.js';
import { jpegSize } from '../support/jpeg-size.js';
import { type ScriptSite, startScriptSite } from '../support/script-site.js';
import { downloadArtifact, startTestService, type TestService } from '../support/service-harness.js';

const chromium = await probeChromium(loadConfig(process.env).chromiumPath);
const skip = chromium.available ? false : `no browser here: ${chromium.reason}`;
const HEALTH = '/api/v1.0/finder_service/health_check';

let site: ScriptSite;
before(async () => {
  site = await startScriptSite();
});
after(async () => {
  await site.close();
});

describe('a service with Chromium', { skip }, () => {
  let kumo: TestService;
  before(async () => {
    kumo = await startTestService();
  });
  after(async () => {
    await kumo.close();
  });

  test('the health check says the browser is available', async () => {
    const response = await kumo.inject({ method: 'GET', url: HEALTH });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json.browser, { available: true });
  });

  test('a screenshot crawl requested over the API bundles cap_org.jpg and dom.html per page', async () => {
    const id = await kumo.requestCrawl({
      seed_urls: [`${site.baseUrl}/script-links`],
      wait_type: 2,
      screenshot: { viewport_width: 1024, viewport_height: 700, render_all: false },
    });
    const history = await kumo.waitForFinished(id, { timeoutMs: 60_000 });
    assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
    assert.equal(history.crawled_url_count, 3);
    const tar = await downloadArtifact(kumo.url, kumo.apiKey, kumo.tenant, id, 'crawl_objects.tar.gz');
    const entries = await readTar(tar);
    const screenshots = [...entries.keys()].filter((name) => name.endsWith('/cap_org.jpg'));
    assert.equal(screenshots.length, 3);
    for (const name of screenshots)
      assert.deepEqual(jpegSize(entries.get(name)!), { width: 1024, height: 700 });
    const doms = [...entries.keys()].filter((name) => name.endsWith('/dom.html'));
    assert.equal(doms.length, 3);
  });
});

describe('a service without Chromium', () => {
  let kumo: TestService;
  before(async () => {
    kumo = await startTestService({ overrides: { chromiumPath: '/nonexistent/chromium' } });
  });
  after(async () => {
    await kumo.close();
  });

  test('the health check stays OK and says the browser is unavailable; serve knows why', async () => {
    const response = await kumo.inject({ method: 'GET', url: HEALTH });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json.status, 'OK');
    // Public: whether it works, not the path or version (those are in the start-up output).
    assert.deepEqual(response.json.browser, { available: false });
    assert.equal(kumo.service.browserStatus()?.available, false);
    assert.match(kumo.service.browserStatus()?.reason ?? '', /apt-get install chromium/);
  });

  test('a run that needs the browser ends 2040 at once with how to install it; a plain run works', async () => {
    const fetchedBefore = site.hitsOf('/plain/one');
    const rendered = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/plain/one`], wait_type: 2 });
    const failed = await kumo.waitForFinished(rendered);
    assert.equal(failed.crawl_execution_status_dtype_id, 2040);
    assert.equal(failed.crawled_url_count, 0);
    assert.match(
      (failed as unknown as { message: string }).message,
      /browser rendering is not available: no Chromium executable at \/nonexistent\/chromium.*apt-get install chromium/,
    );
    assert.equal(site.hitsOf('/plain/one'), fetchedBefore, 'nothing is fetched for a run that cannot render');

    const plain = await kumo.requestCrawl({ seed_urls: [`${site.baseUrl}/plain/one`] });
    const done = await kumo.waitForFinished(plain);
    assert.equal(done.crawl_execution_status_dtype_id, 2030);
    assert.equal(done.crawled_url_count, 1);
    assert.equal((done as unknown as { message?: string }).message, undefined);
  });
});
