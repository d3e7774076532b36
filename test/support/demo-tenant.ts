/**
 * The demo tenant as `kumo serve` makes it at its first start (src/server/bootstrap.ts), for a test
 * that prepares a store without starting a server: through the management operations, with the
 * tenant work threads they check the demo setting in, closed afterwards.
 */
import { bootstrapDemoTenant } from '../../src/server/bootstrap.js';
import { Management } from '../../src/service/management/index.js';
import { ScheduledCrawlService } from '../../src/service/scheduled-crawl-service.js';
import { TenantWork } from '../../src/service/tenant-work/tenant-work.js';
import type { ServiceStore } from '../../src/store/service-store.js';
import { systemClock } from '../../src/util/clock.js';

/** Nothing is crawled while a store is prepared: the demo setting's schedule is off. */
const NO_WORKERS = { notifyPending: () => {}, cancelRun: () => {}, runEnded: () => {} };

export async function bootstrapDemo(store: ServiceStore, pinnedKey?: string): Promise<void> {
  const tenantWork = new TenantWork();
  try {
    const scheduledCrawl = new ScheduledCrawlService(store, NO_WORKERS, systemClock, 'UTC');
    const management = new Management({
      store,
      scheduledCrawl,
      tenantWork,
      clock: systemClock,
      timezone: 'UTC',
    });
    await bootstrapDemoTenant(store, management, systemClock, pinnedKey);
  } finally {
    await tenantWork.close();
  }
}
