/**
 * Attack 2: a viewer of A checks a crawl setting of the largest patterns against one long URL
 * (docs/api.md, Management API, service_settings/check), while A's API key requests instant
 * crawls with as many such patterns from a page of long links (docs/reference/instant-crawl.md).
 */
import { type Attack, type AttackContext, remainingMs } from './attack.js';
import { attackPattern } from './attack-sizes.js';
import { LONG_LINKS_PAGE, longPath } from './attack-site.js';
import { call, type CallAnswer } from './http-call.js';
import { StatusTally } from './status-tally.js';

const patterns = (count: number, offset: number) =>
  Array.from({ length: count }, (_, index) => attackPattern(offset + index));

async function checkSetting({ siteUrl, tenants, sizes, deadline }: AttackContext): Promise<CallAnswer> {
  const { attacker } = tenants;
  const testUrl = `${siteUrl}${longPath(7, sizes.checkUrlLength - siteUrl.length)}`;
  const setting = {
    seed_urls: [`${siteUrl}/`],
    allow_urls_patterns: patterns(sizes.checkPatterns, 0),
    deny_urls_patterns: patterns(sizes.checkPatterns, 1),
  };
  return attacker.viewer.call(
    `${attacker.group}/service_settings/check?test_url=${encodeURIComponent(testUrl)}`,
    { method: 'POST', body: { setting, schedule: { interval: 0 } }, timeoutMs: remainingMs(deadline) },
  );
}

function requestCrawl({ kumoUrl, siteUrl, tenants, sizes, deadline }: AttackContext): Promise<CallAnswer> {
  const { attacker } = tenants;
  const setting = {
    seed_urls: [`${siteUrl}${LONG_LINKS_PAGE}`],
    allow_urls_patterns: patterns(sizes.crawlPatterns, 0),
    deny_urls_patterns: patterns(sizes.crawlPatterns, 1),
  };
  return call(
    `${kumoUrl}/api/v1/contracts/${attacker.contractId}/servicegroups/${attacker.servicegroupId}/crawler/request`,
    {
      method: 'POST',
      headers: { 'x-mf-apikey': attacker.apiKey },
      body: { setting },
      timeoutMs: remainingMs(deadline),
    },
  );
}

/** Polls A's runs until none is pending or running (true) or the deadline (false). */
async function waitForCrawls(context: AttackContext): Promise<boolean> {
  const { group, viewer } = context.tenants.attacker;
  while (performance.now() < context.deadline) {
    const answer = await viewer.call(`${group}/runs?state=active`, {
      timeoutMs: remainingMs(context.deadline),
    });
    if (answer.status === 200 && (answer.json as { runs: unknown[] }).runs.length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

export const patternCheckAttack: Attack = {
  name: '2 pattern check + crawls',
  describe: (sizes) =>
    `a viewer of A: service_settings/check of one ${sizes.checkUrlLength}-character URL against ` +
    `${sizes.checkPatterns} allow + ${sizes.checkPatterns} deny patterns; A's API key: ${sizes.crawls} ` +
    `instant crawls at once with ${sizes.crawlPatterns} + ${sizes.crawlPatterns} patterns from a page of ` +
    `${sizes.longLinks} links of ${sizes.pathLength} characters`,
  async run(context) {
    const [check, ...crawls] = await Promise.all([
      checkSetting(context),
      ...Array.from({ length: context.sizes.crawls }, () => requestCrawl(context)),
    ]);
    const answers = new StatusTally();
    for (const answer of [check!, ...crawls]) answers.add(answer.status);
    const ended = await waitForCrawls(context);
    return {
      answers,
      notes: [
        `the check answered ${check!.status} after ${(check!.ms / 1000).toFixed(1)} s; crawl requests answered ` +
          `after ${Math.max(...crawls.map((crawl) => crawl.ms / 1000)).toFixed(1)} s at most`,
        ended ? 'the crawls ended within the cap' : 'the crawls were still running at the cap (cancelled)',
      ],
    };
  },
};
