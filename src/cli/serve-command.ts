import type { KumoConfig } from '../config/config.js';
import { startService } from '../service/kumo-service.js';

/** `kumo serve`: runs every API group on one port until SIGINT / SIGTERM. */
export async function serveCommand(config: KumoConfig): Promise<number> {
  const service = await startService(config);
  process.stdout.write(`kumo serve: listening on ${service.url} (data in ${config.dataDir})\n`);
  process.stdout.write(`API docs: ${config.publicUrl}/docs\n`);
  const browser = service.browserStatus();
  process.stdout.write(
    browser.available
      ? `browser rendering: available (${browser.version})\n`
      : `browser rendering: unavailable, runs with a screenshot or wait_type 2 fail (${browser.reason})\n`,
  );
  if (service.createdDemoKey !== undefined) {
    process.stdout.write(
      `\nDemo tenant created: contract 1, service group 1, search service 1.\n` +
        `API key (shown once, keep it): ${service.createdDemoKey}\n` +
        `Site search (fill it with: kumo index --service 1 <crawl folder>): ` +
        `${config.publicUrl}${config.finderBasePath}/documents/1/1/1/search?q=...\n\n`,
    );
  }
  if (service.createdAdminToken !== undefined) {
    process.stdout.write(
      `Management API token (shown once; kept in the data directory as admin-token): ${service.createdAdminToken}\n` +
        `  curl -H "Authorization: Bearer <token>" ${config.publicUrl}/admin/v1/contracts\n\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`kumo serve: ${signal} received, stopping; running crawls resume at next start\n`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await service.close();
  return 0;
}
