/**
 * The demo tenant as `kumo serve` makes it at its first start (src/startup/bootstrap.ts), for a test
 * that prepares a store without starting a server: through the management operations, with the
 * tenant work threads they check the demo setting in, closed afterwards.
 */
import { bootstrapDemoTenant } from '../../src/startup/bootstrap.js';
import { Management } from '../../src/usecases/management/index.js';
import { ScheduledCrawlService } from '../../src/usecases/scheduled-crawl-service.js';
import { TenantWork } from '../../src/usecases/tenant-work/tenant-work.js';
import type { RecordStore } from '../../src/store/record-store.js';
import { systemClock } from '../../src/util/clock.js';

/** Nothing is crawled while a store is prepared: the demo setting's schedule is off. */
const NO_WORKERS = { notifyPending: () => {}, cancelRun: () => {}, runEnded: () => {} };

export async function bootstrapDemo(store: RecordStore, pinnedKey?: string): Promise<void> {
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
