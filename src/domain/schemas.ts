/**
 * The TypeBox schemas that check crawl settings, search service settings and schedules. Apart from
 * ./index.ts because the schema package takes ~170 ms to load, which a run's thread should not
 * pay. (docs/design/layers.md, Surfaces)
 */
export {
  type InstantCrawlerSetting,
  InstantCrawlerSettingSchema,
  ScreenshotSchema,
} from './crawl-setting-schema.js';
export {
  checkSchedule,
  dueSlot,
  latestSlotAtOrBefore,
  nextSlotAfter,
  type Schedule,
  ScheduleSchema,
  validateSchedule,
} from './schedule.js';
export {
  checkSearchServiceConfig,
  type SearchServiceConfig,
  SearchServiceConfigSchema,
  validateSearchServiceConfig,
} from './search-service-config.js';
export { validateCrawlSetting } from './validate-crawl-setting.js';
