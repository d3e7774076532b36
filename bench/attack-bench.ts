/**
 * `npm run bench:attacks [-- --small]`: four denial-of-service attacks by tenants of the lowest
 * roles against a real `kumo serve` (docs/operations.md, Benchmark). Contract A attacks,
 * contract B is the victim: while each attack runs, B's health check and site search are probed
 * every 50 ms, and the report gives their median and worst latency, how many were answered, the
 * attack's own answers and the worst hold of the service's API thread from /metrics.
 */
import { attackBlock, summaryTable } from './attacks/attack-report.js';
import { type AttackFigures, runAttack } from './attacks/attack-runner.js';
import { attackSizes, USAGE } from './attacks/attack-sizes.js';
import { startAttackSite } from './attacks/attack-site.js';
import { facetPreviewAttack } from './attacks/facet-preview-attack.js';
import { startKumoServe } from './attacks/kumo-serve.js';
import { patternCheckAttack } from './attacks/pattern-check-attack.js';
import { signInAttack } from './attacks/sign-in-attack.js';
import { setUpTenants } from './attacks/tenant-setup.js';
import { webhookPingAttack } from './attacks/webhook-ping-attack.js';
import { startPromptReceiver, startSilentReceiver } from './attacks/webhook-receivers.js';

const ATTACKS = [facetPreviewAttack, patternCheckAttack, signInAttack, webhookPingAttack];

let sizes;
try {
  sizes = attackSizes();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

const site = await startAttackSite({
  attackerPages: sizes.facetPages,
  longLinks: sizes.longLinks,
  pathLength: sizes.pathLength,
});
const silentReceiver = await startSilentReceiver();
const victimReceiver = await startPromptReceiver();
const kumo = await startKumoServe();
try {
  process.stdout.write(`attack bench  node ${process.version}  cap ${sizes.capMs / 1000} s per attack\n`);
  const setupStarted = performance.now();
  const tenants = await setUpTenants({
    kumoUrl: kumo.url,
    siteUrl: site.url,
    attackerPages: sizes.facetPages,
    attackerWebhookUrl: silentReceiver.url,
    victimWebhookUrl: victimReceiver.url,
  });
  process.stdout.write(`set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s\n\n`);
  const all: AttackFigures[] = [];
  for (const attack of ATTACKS) {
    const figures = await runAttack(attack, {
      kumoUrl: kumo.url,
      siteUrl: site.url,
      tenants,
      sizes,
      victimReceiver,
    });
    all.push(figures);
    process.stdout.write(`${attackBlock(figures)}\n`);
  }
  process.stdout.write(summaryTable(all));
} catch (error) {
  process.stderr.write(`${String(error)}\n--- kumo serve output ---\n${kumo.output().slice(-4000)}\n`);
  process.exitCode = 1;
} finally {
  await kumo.stop();
  await Promise.all([site.close(), silentReceiver.close(), victimReceiver.close()]);
}
