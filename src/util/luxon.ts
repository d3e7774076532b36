import type * as Luxon from 'luxon';
import { lazyRequire } from './lazy-require.js';

/**
 * luxon, loaded with the first date computed in the service time zone (a schedule's next slot, a
 * day of the search analytics) rather than at start (docs/operations.md, Memory). Every module
 * of the service takes luxon from here, so one copy of it is loaded.
 */
export const luxon = lazyRequire<typeof Luxon>('luxon');
