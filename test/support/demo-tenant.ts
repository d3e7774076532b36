/**
 * The demo tenant as `kumo serve` makes it at its first start (src/startup/bootstrap.ts), for a test
 * that prepares a store without starting a server: through the management operations, with the
 * tenant work threads they check the demo setting in, closed afterwards.
 */
import { bootstrapDemoTenant } from '../../src/startup/service.js';
import { Management, ScheduledCrawlService, TenantWork } from '../../src/usecases/index.js';
import type { RecordStore } from '../../src/store/index.js';
import { systemClock } from '../../src/util/index.js';

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
