/** The search analytics of a service group's search services. */
import type { ConsoleRoute } from '../shell/route-types.js';
import { AnalyticsPage } from './analytics-page.js';
import { analyticsTexts } from './analytics-texts.js';
import './analytics.css';

export const analyticsRoutes: ConsoleRoute[] = [
  {
    pattern: '/contracts/:contract/groups/:group/analytics',
    view: (params) => <AnalyticsPage contractId={Number(params.contract)} groupId={Number(params.group)} />,
    nav: { scope: 'group', label: () => analyticsTexts().title, order: 40 },
  },
];
